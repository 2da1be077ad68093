import type { KeywordScreen } from './screen';

/** A message's cleaned body, as drafting makes it. */
interface MessageBody {
  content: string;
  extends: Record<string, unknown>;
}

/**
 * The keyword rules applied to a message's user text: a text's content, a place's name and address,
 * a file's name. Refused as a whole (KeywordRefused), starred, or marked as held (`held`: the words).
 * Other kinds carry no text of the sender's (a card shows a user's own name, media an address).
 */
export function screenMessage<B extends MessageBody>(
  keywords: Pick<KeywordScreen, 'content' | 'size'>,
  type: string,
  body: B,
): B & { held?: string[] } {
  // No list on: the send path reads nothing.
  if (keywords.size === 0) return body;
  const held: string[] = [];
  const screen = (text: string): string => {
    const s = keywords.content(text);
    if (s.held) held.push(...s.held);
    return s.text;
  };
  const ext = body.extends;
  let out: B;
  switch (type) {
    case 'text':
      out = { ...body, content: screen(body.content) };
      break;
    case 'location': {
      const name = typeof ext.name === 'string' ? screen(ext.name) : ext.name;
      const address = typeof ext.address === 'string' ? screen(ext.address) : ext.address;
      const content = typeof name === 'string' && name !== ext.name ? `[位置] ${name}` : body.content;
      out = { ...body, content, extends: { ...ext, name, address } };
      break;
    }
    case 'file':
      out = typeof ext.name === 'string' ? { ...body, extends: { ...ext, name: screen(ext.name) } } : body;
      break;
    default:
      return body;
  }
  return held.length ? { ...out, held: [...new Set(held)] } : out;
}
