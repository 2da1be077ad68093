import { PAT_WITHDRAW_MS, patWithdrawable, type EventLine, type Message, type RouteInput } from '@sparrow/protocol';
import { AppError } from '../../errors';
import type { Limits } from '../../lib/limits';
import { parseJson } from '../../lib/text';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { contactIdOf, type Access } from '../access';
import type { Session } from '../auth';
import type { Hydrator } from './hydrate';
import { lineTarget, storedEventText, type LinePoster } from './pins';
import { eventLineOf } from './presenter';
import type { MessageRow } from './repo';
import { authorizeSend, type AuthorizeParts } from './send/authorize';

/** What PatService is built from. */
export interface PatParts extends AuthorizeParts {
  repos: Pick<Repos, 'users' | 'groups'>;
  access: Pick<Access, 'chat' | 'reaches' | 'requireWritable' | 'blocked'>;
  limits: Pick<Limits, 'sendMessage' | 'pat'>;
}

/**
 * Pats (拍一拍): "A 拍了拍 B", with B's own suffix, as an event line for everyone in the chat. Who
 * may pat is who may send there (sendMessage's rules: friendship, mutes, who may speak), whom: the
 * peer of a private chat, a current member of a group who has not blocked the patter (one who has
 * is answered as one not in the group), or oneself; rate-limited (Limits.pat).
 */
export class PatService {
  constructor(
    private readonly ctx: PatParts,
    private readonly hydrator: Hydrator,
    private readonly lines: LinePoster,
  ) {}

  async pat(session: Session, body: RouteInput<'patUser'>): Promise<Message> {
    const chat = await this.ctx.access.chat(session, body.toContactId);
    if (chat.kind === 'self') throw new AppError('NotAllowedTarget');
    await authorizeSend(this.ctx, session, chat);
    const inChat =
      body.user_id === session.userId ||
      (chat.kind === 'private'
        ? body.user_id === chat.peer.id
        : (await this.ctx.repos.groups.member(chat.group.id, body.user_id)) !== undefined);
    const blocked =
      chat.kind === 'group' &&
      body.user_id !== session.userId &&
      (await this.ctx.access.blocked(body.user_id, session.userId));
    const target = inChat && !blocked ? await this.ctx.repos.users.byId(body.user_id) : undefined;
    if (!target) throw new AppError('UserNotFound', {}, { fields: ['user_id'] });
    await this.ctx.limits.pat(session.userId, chat.chatKey, target.id);
    const line = {
      event: 'pat',
      user_id: session.userId,
      name: session.user.realname,
      target_id: target.id,
      target_name: target.realname,
      suffix: target.pat_suffix,
    } satisfies EventLine;
    const row = await this.lines.postLine(lineTarget(session, chat), {
      type: 'event',
      line,
      content: storedEventText(line),
    });
    return this.hydrator.present(row!, session.user);
  }
}

/** What withdrawing a pat reads and changes. */
export interface PatWithdrawParts {
  repos: Pick<Repos, 'messages'>;
  access: Pick<Access, 'holders'>;
  realtime: Pick<Realtime, 'publish'>;
  now: () => number;
}

/** Whether an event line is a pat made by `userId`. */
export function isOwnPat(row: MessageRow, userId: number): boolean {
  if (row.type !== 'event' || row.is_undo || row.from_user !== userId) return false;
  const line = eventLineOf(parseJson(row.extends));
  return line?.event === 'pat' && line.user_id === userId;
}

/**
 * Withdraws a pat line of its patter's within PAT_WITHDRAW_MS: as WeChat does, it leaves no
 * "withdrew" line but vanishes for everyone (deleted for all, told as delMessage).
 */
export async function withdrawPat(ctx: PatWithdrawParts, row: MessageRow): Promise<void> {
  if (!patWithdrawable(row.create_time, ctx.now()))
    throw new AppError('UndoTooLate', { minutes: Math.round(PAT_WITHDRAW_MS / 60_000) });
  // Withdrawn once: a call that lost to another answers as one made after it.
  if (!(await ctx.repos.messages.deleteForAll(row.id))) throw new AppError('MessageNotFound');
  for (const id of await ctx.access.holders(row)) {
    await ctx.realtime.publish([id], {
      type: 'delMessage',
      data: { id: row.client_id, msg_id: row.id, toContactId: contactIdOf(row, id) },
    });
  }
}
