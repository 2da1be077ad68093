import { PICTURES, type BlockedUser, type RouteInput } from '@sparrow/protocol';
import { AppError } from '../../errors';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import type { Session } from '../auth';
import type { BlockRepo } from './repo';

/** What BlockService is built from. */
export interface BlockParts {
  repos: Pick<Repos, 'blocks' | 'users' | 'friends'>;
  realtime: Pick<Realtime, 'publish'>;
  now: () => number;
}

/**
 * Block lists (黑名单, docs/protocol.md §3 `/enterprise/block/*`): whom I blocked. What a block
 * refuses is `Access`'s (`blocked`, `reaches`, `seesMoment`) and the places that ask it; this
 * service keeps the list, tells my other devices of each change and never the person concerned.
 */
export class BlockService {
  private readonly blocks: BlockRepo;
  /** Told when someone blocks someone (a call between them ends). */
  private readonly blocked: Array<(blockerId: number, blockedId: number) => Promise<void>> = [];

  constructor(private readonly ctx: BlockParts) {
    this.blocks = ctx.repos.blocks;
  }

  onBlocked(listener: (blockerId: number, blockedId: number) => Promise<void>): void {
    this.blocked.push(listener);
  }

  /** Blocks an active user other than me; blocking them again changes nothing and answers alike. */
  async block(session: Session, body: RouteInput<'blockAdd'>, exceptClientId?: string): Promise<void> {
    if (body.user_id === session.userId) throw new AppError('BlockSelf', {}, { fields: ['user_id'] });
    const user = await this.ctx.repos.users.byId(body.user_id);
    if (!user || user.status !== 1) throw new AppError('UserNotFound', {}, { fields: ['user_id'] });
    if (!(await this.blocks.block(session.userId, user.id, this.ctx.now()))) return;
    for (const listener of this.blocked) await listener(session.userId, user.id);
    await this.tell(session.userId, user.id, 1, exceptClientId);
  }

  /** Unblocks someone; someone not blocked (or no one) is passed over. */
  async unblock(session: Session, body: RouteInput<'blockDel'>, exceptClientId?: string): Promise<void> {
    if (!(await this.blocks.unblock(session.userId, body.user_id))) return;
    await this.tell(session.userId, body.user_id, 0, exceptClientId);
  }

  /** One page of the people I blocked, the latest first, by the names I gave them. */
  async list(session: Session, body: RouteInput<'blockList'>): Promise<{ items: BlockedUser[]; total: number }> {
    const { rows, total } = await this.blocks.list(session.userId, body.page, body.limit);
    const ids = rows.map((r) => r.blocked_id);
    const [users, remarks] = await Promise.all([
      this.ctx.repos.users.byIds(ids),
      this.ctx.repos.friends.remarks([session.userId], ids),
    ]);
    const mine = remarks.get(session.userId);
    const items = rows.map((r) => {
      const user = users.get(r.blocked_id);
      const realname = user?.realname ?? '';
      return {
        user_id: r.blocked_id,
        realname,
        displayName: mine?.get(r.blocked_id) || realname,
        avatar: user?.avatar ?? PICTURES.person,
        create_time: r.create_time,
      };
    });
    return { items, total };
  }

  private async tell(userId: number, otherId: number, blocked: 0 | 1, exceptClientId?: string): Promise<void> {
    await this.ctx.realtime.publish([userId], { type: 'block', data: { user_id: otherId, blocked } }, exceptClientId);
  }
}
