import { negotiateLocale, GroupRoles, needsFriendship } from '@sparrow/protocol';
import { AppError } from '../../../errors';
import type { Limits } from '../../../lib/limits';
import type { Access, Chat } from '../../access';
import type { Session } from '../../auth';
import { groupSetting } from '../../group';
import type { ConfigService } from '../../system';
import { requireUnmuted } from '../../report';

/** What the rules of sending read. */
export interface AuthorizeParts {
  access: Pick<Access, 'reaches' | 'requireWritable'>;
  config: ConfigService;
  limits: Pick<Limits, 'sendMessage'>;
  now: () => number;
}

/**
 * The rules of sendMessage, in docs/protocol.md's order; throws the first that refuses. `limited`
 * false skips the send rate limit alone (a held message an operator approves was counted when sent).
 */
export async function authorizeSend(ctx: AuthorizeParts, session: Session, chat: Chat, limited = true): Promise<void> {
  const { chatInfo, sysInfo } = ctx.config.get();
  requireUnmuted(session.user, ctx.now());
  if (chat.kind === 'private') {
    if (chatInfo.simpleChat !== 1) throw new AppError('PrivateChatDisabled');
    if (chat.peer.status !== 1) throw new AppError('UserNotFound');
    // Someone who blocked me is answered as a non-friend, in either runMode.
    if (!(await ctx.access.reaches(session.userId, chat.peer.id, needsFriendship(sysInfo.runMode))))
      throw new AppError('NotFriendChat');
  }
  if (chat.kind === 'group') {
    ctx.access.requireWritable(chat);
    const { nospeak } = groupSetting(chat.group);
    if (nospeak === 1 && chat.member.role === GroupRoles.Member) throw new AppError('GroupNoSpeakAdmins');
    if (nospeak === 2 && chat.member.role !== GroupRoles.Owner) throw new AppError('GroupNoSpeakOwner');
    const until = chat.member.no_speak_until;
    if (until > ctx.now()) {
      const locale = negotiateLocale(session.user.language || undefined);
      throw new AppError(
        'Muted',
        { until: new Date(until).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' }) },
        { no_speak_until: until },
      );
    }
  }
  if (limited) await ctx.limits.sendMessage(session.userId, chatInfo.sendInterval);
}
