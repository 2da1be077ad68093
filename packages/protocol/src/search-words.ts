/** The kinds of message search finds (the API's SearchableType). */
export const SEARCHED_TYPES = ['text', 'file', 'location', 'contact', 'record', 'chain', 'poll'] as const;

/**
 * The words a message is found by, on the server and in the web client's local search alike: a
 * text's content, a file's name, a place's name and address, a card's name, a merged record's
 * title, a chain's title and example, a poll's question. Other kinds, and the "[位置]" and "[个人名片]" labels of the content, are not searched, so
 * that a word of the label does not find every place or card.
 */
export function searchWords(type: string, content: string, ext: Readonly<Record<string, unknown>>): string {
  if (type === 'text') return content;
  if (!(SEARCHED_TYPES as readonly string[]).includes(type)) return '';
  const names =
    type === 'file'
      ? [ext.name]
      : type === 'location'
        ? [ext.name, ext.address]
        : type === 'record'
          ? [ext.title]
          : type === 'chain'
            ? [ext.title, ext.example]
            : type === 'poll'
              ? [ext.question]
              : [ext.displayName];
  return names.filter((n): n is string => typeof n === 'string' && n !== '').join('\n');
}

/** Text as search compares it: compatibility forms folded (NFKC), letters in lower case. */
export function foldForSearch(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}
