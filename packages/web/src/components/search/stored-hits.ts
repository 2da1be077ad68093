import type { SearchHit } from '@sparrow/protocol';
import { localStore } from '../../chat/local-store';
import { conversationKeyOf } from '../../lib/conversation-list';
import { contacts } from '../../stores/contacts';
import { wordSpans } from './hits';

/**
 * The search over the messages stored on this device (chat/local-store.ts), shaped as searchMessage's
 * hits: each with its conversation's row (the list's, else the one the message carried) and the
 * words marked in a text.
 */
export async function storedHits(me: number, words: string): Promise<SearchHit[]> {
  const found = await localStore.search(me, words);
  return found.flatMap((message) => {
    const contactInfo = contacts.get(conversationKeyOf(message, me)) ?? message.contactInfo;
    if (!contactInfo) return [];
    const highlight: SearchHit['highlight'] =
      message.type === 'text' ? wordSpans(message.content, words).map(([start, end]) => [start, end]) : [];
    return [{ ...message, contactInfo, highlight }];
  });
}
