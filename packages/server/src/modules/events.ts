import type { EventLine, Message, RouteInput } from '@sparrow/protocol';
import type { Session } from './auth';
import type { GroupRow, MemberRow } from './group';
import type { UserRow } from './user';

/**
 * Where a module tells of a change: a group's chat (posted by the member who made the change, or
 * under the owner's membership when they have left), a user's `system` conversation, or the
 * private chat of two users (posted by `from`).
 */
export type EventTarget =
  | { kind: 'group'; group: GroupRow; member: MemberRow; actor: UserRow }
  | { kind: 'system'; recipient: UserRow }
  | { kind: 'private'; from: UserRow; to: UserRow };

/**
 * A line told in a chat: an event line, rendered for each reader from its facts (`content` is what
 * clients that show the stored text read), a group's text such as a new notice, or a text said on
 * someone's behalf (the greeting of a new friendship).
 */
export type PostedLine =
  | { type: 'event'; line: EventLine; content: string }
  | { type: 'text'; content: string; extends: { notice: 1 }; at: number[] }
  | { type: 'text'; content: string }
  | { type: 'chain'; content: string; extends: Record<string, unknown> };

/** The one port through which group and friend code post their lines; the im module implements it. */
export interface EventPort {
  postEvent(target: EventTarget, line: PostedLine): Promise<void>;
}

/** Sends a message as sendMessage does: the upload route sends the file it has just stored. */
export interface MessageSender {
  send(session: Session, body: RouteInput<'sendMessage'>, socketClientId?: string): Promise<Message>;
}
