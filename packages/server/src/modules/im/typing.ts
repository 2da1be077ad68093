import { GroupRoles, groupNumber, needsFriendship, TYPING_GROUP_MAX, type ClientFrame } from '@sparrow/protocol';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import type { Access } from '../access';
import { groupSetting } from '../group';
import type { ConfigService } from '../system';

/** A `typing` frame as the socket gateway parsed it. */
export type TypingFrame = Extract<ClientFrame, { type: 'typing' }>;

/** What TypingService is built from. */
export interface TypingParts {
  repos: Pick<Repos, 'users' | 'groups' | 'typing'>;
  access: Pick<Access, 'reaches' | 'blocked'>;
  config: ConfigService;
  realtime: Pick<Realtime, 'publish'>;
  now: () => number;
}

/**
 * 对方正在输入… (docs/protocol.md §4 `typing`): relays a socket's typing frame to whom it concerns, or
 * drops it without a word. Only reads: a frame is a hint that lives a few seconds, never stored. Relayed
 * when the sender could send a message there now (a private chat they may write in, neither blocking
 * the other; a group they may speak in) and, in a group, it has at most TYPING_GROUP_MAX members; to
 * those who keep `typing` on, while the sender keeps it on too. The gateway limits how often.
 */
export class TypingService {
  constructor(private readonly ctx: TypingParts) {}

  /** Relays `frame` from `userId`; answers how many people it was published to (0: dropped). */
  async relay(userId: number, frame: TypingFrame): Promise<number> {
    const sender = await this.ctx.repos.users.byId(userId);
    if (!sender || sender.status !== 1 || sender.typing !== 1 || sender.muted_until > this.ctx.now()) return 0;
    const to =
      typeof frame.to === 'number'
        ? await this.privateAudience(userId, frame.to)
        : await this.groupAudience(userId, frame.to);
    if (!to || to.ids.length === 0) return 0;
    await this.ctx.realtime.publish(to.ids, {
      type: 'typing',
      data: { from: userId, chat: to.chat, state: frame.state },
    });
    return to.ids.length;
  }

  /** The peer, when I may write to them and neither of us blocked the other. */
  private async privateAudience(userId: number, peerId: number): Promise<{ ids: number[]; chat: number } | null> {
    if (peerId === userId) return null;
    const { chatInfo, sysInfo } = this.ctx.config.get();
    if (chatInfo.simpleChat !== 1) return null;
    const peer = await this.ctx.repos.users.byId(peerId);
    if (!peer || peer.status !== 1 || peer.typing !== 1) return null;
    const [reaches, blocked] = await Promise.all([
      this.ctx.access.reaches(userId, peerId, needsFriendship(sysInfo.runMode)),
      this.ctx.access.blocked(userId, peerId),
    ]);
    return reaches && !blocked ? { ids: [peerId], chat: userId } : null;
  }

  /** The other members who keep typing on, when I may speak in the group and it is small enough. */
  private async groupAudience(
    userId: number,
    contactId: string,
  ): Promise<{ ids: number[]; chat: `group-${number}` } | null> {
    const groupId = groupNumber(contactId);
    const group = await this.ctx.repos.groups.byId(groupId);
    if (!group || group.status !== 1) return null;
    const members = await this.ctx.repos.typing.members(groupId, TYPING_GROUP_MAX + 1);
    if (members.length > TYPING_GROUP_MAX) return null;
    const me = members.find((m) => m.user_id === userId);
    if (!me || me.no_speak_until > this.ctx.now()) return null;
    const { nospeak } = groupSetting(group);
    if (nospeak === 1 && me.role === GroupRoles.Member) return null;
    if (nospeak === 2 && me.role !== GroupRoles.Owner) return null;
    const ids = members.filter((m) => m.user_id !== userId && m.typing === 1 && m.status === 1).map((m) => m.user_id);
    return { ids, chat: `group-${groupId}` };
  }
}
