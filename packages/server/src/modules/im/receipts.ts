import {
  READ_LISTED_MAX,
  READ_RECEIPT_SCAN_MAX,
  READ_RECEIPT_SENDERS_MAX,
  sharesReceipts,
  type ReadCount,
  type ReadList,
  type ReadListMember,
  type RouteInput,
} from '@sparrow/protocol';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import type { Access, Chat } from '../access';
import type { Session } from '../auth';
import { groupSetting, type GroupRow } from '../group';
import type { ConfigService } from '../system';
import type { UserRow } from '../user';
import type { NamedPosition, ReceiptPosition } from './receipts-repo';

/** What ReceiptService is built from. */
export interface ReceiptParts {
  repos: Pick<Repos, 'receipts' | 'friends'>;
  access: Access;
  config: ConfigService;
  realtime: Realtime;
}

type GroupChat = Extract<Chat, { kind: 'group' }>;

/**
 * Group read receipts (群消息已读回执, issue 41 point 1): how many of the members a message of mine
 * reached have read it, and who. Counted from the members' read positions (a member's conversation
 * row), so that a read writes nothing per message. A message reached those in the group before it
 * was sent, less its sender; one reached member has read it when their read position or cleared
 * history is at or past it, and shares receipts (`sharesReceipts`: on in the group, and their own
 * 发送已读回执 on unless the organisation makes receipts mandatory). Only a message's sender asks;
 * to anyone else the message is as missing as to a stranger.
 */
export class ReceiptService {
  constructor(private readonly ctx: ReceiptParts) {}

  /** How many have read each of my messages among `ids`, in the order asked; [] while receipts are off for me or the group. */
  async counts(session: Session, body: RouteInput<'groupReadCounts'>): Promise<ReadCount[]> {
    const chat = await this.ctx.access.chat(session, body.toContactId);
    if (chat.kind !== 'group' || !this.shares(session.user, chat.group)) return [];
    const mine = await this.ctx.repos.receipts.ownMessages(chat.chatKey, session.userId, body.ids);
    if (mine.size === 0) return [];
    const positions = await this.ctx.repos.receipts.positions(chat.group.id, chat.chatKey, session.userId);
    const counted = this.counter(chat.group);
    return [...new Set(body.ids)].filter((id) => mine.has(id)).map((id) => tally(id, positions, counted));
  }

  /** Who has read one of my group messages and who has not (at most READ_LISTED_MAX of each named). */
  async list(session: Session, body: RouteInput<'groupReadList'>): Promise<ReadList> {
    const { row, chat } = await this.ctx.access.message(session, body.id);
    if (chat.kind !== 'group' || row.from_user !== session.userId || row.type === 'event')
      throw new AppError('MessageNotFound');
    if (!this.shares(session.user, chat.group)) throw new AppError('ReadReceiptsOff');
    const positions = await this.ctx.repos.receipts.namedPositions(chat.group.id, chat.chatKey, session.userId);
    const counted = this.counter(chat.group);
    const reached = positions.filter((p) => p.join_msg_id < row.id);
    const readers = reached.filter((p) => hasRead(p, row.id, counted));
    const unreaders = reached.filter((p) => !hasRead(p, row.id, counted));
    const readList = readers.slice(0, READ_LISTED_MAX);
    const unreadList = unreaders.slice(0, READ_LISTED_MAX);
    const ids = [...readList, ...unreadList].map((p) => p.user_id);
    const remarks = (await this.ctx.repos.friends.remarks([session.userId], ids)).get(session.userId);
    const named = (list: NamedPosition[]): ReadListMember[] =>
      list.map((p) => ({
        user_id: p.user_id,
        name: remarks?.get(p.user_id) || p.nickname || p.realname,
        avatar: p.avatar,
      }));
    return {
      msg_id: row.id,
      read: readers.length,
      unread: unreaders.length,
      readers: named(readList),
      unreaders: named(unreadList),
    };
  }

  /**
   * A member's read position in a group moved from `after` to `upTo`: the senders of the messages it
   * passed (those reaching the reader: sent after they joined) are told by `readReceipt`, one push to
   * them all, across nodes like any other. Bounded per read: one query, READ_RECEIPT_SENDERS_MAX senders.
   * The push does not say who read: a sender learns that from the list, as receipts allow, not each
   * member's reading times.
   */
  async onRead(session: Session, chat: GroupChat, after: number, upTo: number): Promise<void> {
    const from = Math.max(after, chat.member.join_msg_id);
    if (upTo <= from || !this.shares(session.user, chat.group)) return;
    const senders = await this.ctx.repos.receipts.sendersIn(
      chat.group.id,
      chat.chatKey,
      session.userId,
      { after: from, upTo },
      { scan: READ_RECEIPT_SCAN_MAX, limit: READ_RECEIPT_SENDERS_MAX, sharing: !this.mandatory() },
    );
    if (senders.length === 0) return;
    await this.ctx.realtime.publish(senders, {
      type: 'readReceipt',
      data: { toContactId: `group-${chat.group.id}`, after: from, msg_id: upTo },
    });
  }

  private mandatory(): boolean {
    return this.ctx.config.get().sysInfo.runMode === 1;
  }

  /** Whether a user's reads count in a group's receipts, and whether they see them. */
  private shares(user: Pick<UserRow, 'read_receipt'>, group: GroupRow): boolean {
    return sharesReceipts({
      runMode: this.ctx.config.get().sysInfo.runMode,
      own: user.read_receipt ? 1 : 0,
      group: groupSetting(group).receipt,
    });
  }

  /** Whether a member's read counts, by the rule `shares` asks (the group's switch is on: it was asked first). */
  private counter(group: GroupRow): (p: ReceiptPosition) => boolean {
    return (p) => this.shares(p, group);
  }
}

function hasRead(p: ReceiptPosition, msgId: number, counted: (p: ReceiptPosition) => boolean): boolean {
  return p.read_to >= msgId && counted(p);
}

/** One message's counts among the members' positions: those who joined before it, read or not. */
function tally(
  msgId: number,
  positions: readonly ReceiptPosition[],
  counted: (p: ReceiptPosition) => boolean,
): ReadCount {
  let read = 0;
  let unread = 0;
  for (const p of positions) {
    if (p.join_msg_id >= msgId) continue;
    if (hasRead(p, msgId, counted)) read++;
    else unread++;
  }
  return { msg_id: msgId, read, unread };
}
