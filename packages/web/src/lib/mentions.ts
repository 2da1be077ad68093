/** Someone picked in the @ list: their id (0 = everyone) and the name written after the @. */
export interface Mention {
  id: number;
  name: string;
}

/** The ids of the mentions still written in the text ("@name"); each once. */
export function mentionIds(text: string, picked: readonly Mention[]): number[] {
  const ids: number[] = [];
  for (const m of picked) if (text.includes(`@${m.name}`) && !ids.includes(m.id)) ids.push(m.id);
  return ids;
}

/**
 * Whether the user just typed an "@" that should open the picker: the text grew by exactly
 * that character at the caret, after a space, a line break or nothing.
 */
export function typedAt(before: string, after: string, caret: number): boolean {
  if (after.length !== before.length + 1 || after[caret - 1] !== '@') return false;
  const prev = after[caret - 2];
  return prev === undefined || /\s/.test(prev) || !/[A-Za-z0-9._-]/.test(prev);
}

/** Writes a picked name after the "@" just before the caret; answers the text and the new caret. */
export function insertMention(text: string, caret: number, name: string): { text: string; caret: number } {
  const at = text.lastIndexOf('@', caret - 1);
  const start = at >= 0 ? at + 1 : caret;
  const insert = `${name} `;
  return { text: text.slice(0, start) + insert + text.slice(caret), caret: start + insert.length };
}
