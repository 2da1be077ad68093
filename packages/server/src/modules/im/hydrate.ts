import { negotiateLocale, type Message, type Reaction } from '@sparrow/protocol';
import { parseJson } from '../../lib/text';
import type { Repos } from '../../repos';
import type { UserRow } from '../user';
import { namedInLine, toMessage, type MessageContext, type Reader } from './presenter';
import { reactionsFor } from './reactions-view';
import { ChatType, type MessageRow } from './repo';

/** A user as a reader: their id and language (and the remarks an event line needs, when given). */
export function readerOf(user: UserRow, remarks?: ReadonlyMap<number, string>): Reader {
  return { userId: user.id, locale: negotiateLocale(user.language || undefined), ...(remarks && { remarks }) };
}

/** The users the event lines among `rows` name. */
export function namedInLines(rows: readonly MessageRow[]): number[] {
  return [...new Set(rows.filter((r) => r.type === 'event').flatMap((r) => namedInLine(parseJson(r.extends))))];
}

/** No reactions: what `present` shows of a message on its way. */
const NO_REACTIONS: ReadonlyMap<number, Reaction[]> = new Map<number, Reaction[]>();

/** What the caller already holds and need not be loaded again. */
export type Known = Partial<Omit<MessageContext, 'reader'>>;

/**
 * Presents stored messages, loading what they show in bulk: one query each for senders, quotes,
 * group roles and nicknames, peers' read marks and (for a reader's page) reactions, whatever the
 * number of rows or readers.
 */
export class Hydrator {
  constructor(
    private readonly repos: Pick<
      Repos,
      'users' | 'groups' | 'messages' | 'conversations' | 'friends' | 'reactions' | 'polls'
    >,
  ) {}

  /** Rows for one reader. */
  async presentMany(rows: MessageRow[], readerRow: UserRow, known: Known = {}): Promise<Message[]> {
    const { users: knownUsers, quotes: knownQuotes, ...given } = known;
    const quotes = knownQuotes ?? (await this.repos.messages.byIds(rows.map((r) => r.pid).filter(Boolean)));
    const users = await this.users([...rows, ...quotes.values()], [readerRow], knownUsers);
    const roles = given.members ? undefined : await this.roles(rows, [...quotes.values()]);
    const mineInPrivate = rows.filter((r) => r.chat_type === ChatType.Private && r.from_user === readerRow.id);
    const peerRead =
      given.peerReadTo === undefined
        ? await this.repos.conversations.peerReadMarks(readerRow.id, [...new Set(mineInPrivate.map((r) => r.chat_key))])
        : undefined;
    const remarks = await this.repos.friends.remarks([readerRow.id], namedInLines(rows));
    const reader = readerOf(readerRow, remarks.get(readerRow.id));
    const reactions = given.reactions ?? (await reactionsFor(this.repos.reactions, rows, readerRow.id));
    const pollIds = rows.filter((r) => r.type === 'poll').map((r) => Number(parseJson(r.extends).poll_id));
    const polls = given.polls ?? (await this.repos.polls.tallies(pollIds, readerRow.id));
    return rows.map((r) =>
      toMessage(r, {
        reader,
        users,
        quotes,
        reactions,
        polls,
        ...(r.chat_type === ChatType.Group && roles && { members: roles.get(r.to_id) }),
        ...(peerRead?.has(r.chat_key) && { peerReadTo: peerRead.get(r.chat_key) }),
        ...given,
      }),
    );
  }

  /**
   * One message as it is sent, answered or pushed on its way: without its reactions (a new message
   * has none, and a change of them travels as its own delta), so that a send asks nothing of them.
   */
  async present(row: MessageRow, readerRow: UserRow, known: Known = {}): Promise<Message> {
    const [message] = await this.presentMany([row], readerRow, { reactions: NO_REACTIONS, ...known });
    return message!;
  }

  /**
   * One row as each of `readerIds` sees it (an event line or a withdrawal: the text says "you" to
   * the one it names, in each reader's language). Readers no longer on record are left out.
   */
  async forReaders(
    row: MessageRow,
    readerIds: readonly number[],
    known: Known = {},
  ): Promise<Array<{ reader: UserRow; message: Message }>> {
    const { users: knownUsers, quotes: knownQuotes, ...given } = known;
    const quotes = knownQuotes ?? (await this.repos.messages.byIds(row.pid ? [row.pid] : []));
    const readers = await this.repos.users.byIds(readerIds);
    const users = await this.users([row, ...quotes.values()], [...readers.values()], knownUsers);
    const roles = given.members ? undefined : await this.roles([row], [...quotes.values()]);
    const members = roles?.get(row.to_id);
    // In a private chat only the sender's copy shows whether the peer has read it.
    const senderSees =
      row.chat_type === ChatType.Private
        ? ((await this.repos.conversations.conversation(row.to_id, row.chat_key))?.read_msg_id ?? 0)
        : undefined;
    const remarks = await this.repos.friends.remarks(readerIds, namedInLines([row]));
    const out: Array<{ reader: UserRow; message: Message }> = [];
    for (const id of readerIds) {
      const reader = readers.get(id);
      if (!reader) continue;
      const message = toMessage(row, {
        reader: readerOf(reader, remarks.get(id)),
        users,
        quotes,
        ...(row.chat_type === ChatType.Group && members && { members }),
        ...(senderSees !== undefined && id === row.from_user && { peerReadTo: senderSees }),
        ...given,
      });
      out.push({ reader, message });
    }
    return out;
  }

  /** The senders of `rows`, with `have` and `known` taken as they are. */
  private async users(
    rows: MessageRow[],
    have: UserRow[],
    known?: Map<number, UserRow>,
  ): Promise<Map<number, UserRow>> {
    const users = new Map<number, UserRow>(have.map((u) => [u.id, u]));
    for (const [id, u] of known ?? []) users.set(id, u);
    const missing = rows.map((r) => r.from_user).filter((id) => !users.has(id));
    if (missing.length) for (const [id, u] of await this.repos.users.byIds(missing)) users.set(id, u);
    return users;
  }

  /** Roles and nicknames, in the groups of `rows`, of everyone who wrote them or the quotes. */
  private roles(rows: MessageRow[], quotes: MessageRow[]) {
    const groupIds = [...new Set(rows.filter((r) => r.chat_type === ChatType.Group).map((r) => r.to_id))];
    const writers = [...new Set([...rows, ...quotes].map((r) => r.from_user))];
    return this.repos.groups.rolesIn(groupIds, writers);
  }
}
