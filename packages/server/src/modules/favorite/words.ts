import { termQuery, wordTokens } from '../im';

/**
 * Whether `text` holds every one of `terms` as message search finds them (SearchRepo.search): the
 * tokens of the word index (`wordTokens`, a Latin word as a prefix, Chinese by its pairs), and the
 * term as typed where the tokens do not say it is there (three Chinese characters and more, several
 * runs in one term, a term of neither letters nor digits), case ignored.
 */
export function holdsTerms(text: string, terms: readonly string[]): boolean {
  if (!terms.length) return true;
  const tokens = wordTokens(text);
  const lower = text.toLowerCase();
  return terms.every((term) => {
    const query = termQuery(term);
    const asTyped = () => lower.includes(term.toLowerCase());
    if (!query) return asTyped();
    const indexed = query.tokens.every(({ token, prefix }) =>
      prefix ? tokens.some((t) => t.startsWith(token)) : tokens.includes(token),
    );
    return indexed && (!query.recheck || asTyped());
  });
}
