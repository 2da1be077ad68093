import type { Contact, SearchHit } from '@sparrow/protocol';
import { conversationKeyOf } from '../../lib/conversation-list';

export type Span = readonly [number, number];

/** A text cut at the spans: the pieces in order, each marked or not. Bad or overlapping spans are skipped. */
export function cutAt(text: string, spans: readonly Span[]): Array<{ text: string; marked: boolean; at: number }> {
  const parts: Array<{ text: string; marked: boolean; at: number }> = [];
  let from = 0;
  for (const [start, end] of spans) {
    if (start < from || end <= start || end > text.length) continue;
    if (start > from) parts.push({ text: text.slice(from, start), marked: false, at: from });
    parts.push({ text: text.slice(start, end), marked: true, at: start });
    from = end;
  }
  if (from < text.length) parts.push({ text: text.slice(from), marked: false, at: from });
  return parts;
}

/**
 * Where the words of a search occur in `text`, case ignored, as sorted and merged `[start, end)`
 * spans: for the names of files, places and cards, which the server's offsets (into `content`)
 * do not cover.
 */
export function wordSpans(text: string, words: string): Span[] {
  const lower = text.toLowerCase();
  const found: Array<[number, number]> = [];
  for (const word of new Set(words.toLowerCase().split(/\s+/u).filter(Boolean))) {
    for (let i = lower.indexOf(word); i >= 0; i = lower.indexOf(word, i + word.length)) {
      found.push([i, i + word.length]);
    }
  }
  found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Array<[number, number]> = [];
  for (const span of found) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push(span);
  }
  return merged;
}

/** A conversation with messages found in it: the newest hit, and how many there are. */
export interface ChatHits {
  key: string;
  contact: Contact;
  newest: SearchHit;
  /** Known once every hit of the conversation is among those loaded, or once asked. */
  count: number | null;
  loaded: number;
}

/**
 * Hits (newest first) grouped by conversation, in the order of each one's newest hit; `complete`
 * when they are every hit there is, so that each conversation's count is known.
 */
export function groupHits(hits: readonly SearchHit[], me: number, complete: boolean): ChatHits[] {
  const byKey = new Map<string, ChatHits>();
  for (const hit of hits) {
    const key = conversationKeyOf(hit, me);
    const chat = byKey.get(key);
    if (chat) chat.loaded++;
    else byKey.set(key, { key, contact: hit.contactInfo, newest: hit, count: null, loaded: 1 });
  }
  const chats = [...byKey.values()];
  if (complete) for (const c of chats) c.count = c.loaded;
  return chats;
}
