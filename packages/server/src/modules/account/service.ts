import { PICTURES, SocketCloseCodes, translate, DEFAULT_LOCALE } from '@sparrow/protocol';
import { AppError } from '../../errors';
import { verifyPassword } from '../../lib/crypto';
import type { Limits } from '../../lib/limits';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import type { Storage } from '../../storage/storage';
import type { Session } from '../auth';
import type { ConfigService } from '../system';
import type { AccountRepo } from './erase-repo';
import { removeArchive } from './export';

/** What AccountService is built from. */
export interface AccountParts {
  repos: Pick<Repos, 'accounts'>;
  config: ConfigService;
  limits: Limits;
  realtime: Realtime;
  storage: Storage;
  now: () => number;
}

/** The group module's rule for leaving a group for good, and the freeing of files nothing uses. */
export interface AccountDeps {
  depart(user: Session['user'], groupId: number): Promise<void>;
  release(fileId: number): Promise<unknown>;
}

/** A user's own deletion of their account (注销账号, docs/product.md "Deleting my account"). */
export class AccountService {
  private readonly accounts: AccountRepo;

  private readonly erasing: Array<(userId: number) => Promise<void>> = [];

  constructor(
    private readonly ctx: AccountParts,
    private readonly deps: AccountDeps,
  ) {
    this.accounts = ctx.repos.accounts;
  }

  /** Tells `listener` of each account about to be erased, before it is (its bots go with it). */
  onErasing(listener: (userId: number) => Promise<void>): void {
    this.erasing.push(listener);
  }

  /**
   * Deletes the caller's account once its password is confirmed (a wrong one counts as a failed
   * login). The groups are left first, each under its own lock by the group module's rules, so
   * that a retry after a failure finds the rest to do; then one transaction deletes the user's own
   * data and marks the row deleted, which only one of two calls at once does (the other finds it
   * done and answers alike; a call after it has no session). Sockets are closed and ex-friends told
   * after the commit.
   */
  async deleteAccount(session: Session, password: string, ip: string): Promise<void> {
    const user = session.user;
    const key = user.account.toLowerCase();
    await this.ctx.limits.assertLoginAllowed(key, ip);
    if (!(await verifyPassword(password, user.password_hash))) {
      await this.ctx.limits.loginFailed(key, ip);
      throw new AppError('OriginalPasswordWrong', {}, { fields: ['password'] });
    }
    await this.ctx.limits.loginSucceeded(key, ip);
    await this.erase(user);
  }

  /**
   * Erases an account whose deletion is decided (its user's, password confirmed; a bot's, by its
   * owner): groups left, its data deleted and its row marked deleted, sockets closed, friends told.
   */
  async erase(user: Session['user']): Promise<void> {
    for (const listener of this.erasing) await listener(user.id);
    // Asked before the groups are left, and again under the lock of the deletion itself.
    if (user.role === 1 && !(await this.accounts.otherAdmin(user.id))) throw new AppError('LastAdmin');
    for (const groupId of await this.accounts.groupIds(user.id)) await this.deps.depart(user, groupId);
    const config = this.ctx.config.get();
    const erased = await this.accounts.erase(user.id, this.ctx.now(), {
      removeMessages: config.account.removeMessages === 1,
      anonymous: { realname: translate(DEFAULT_LOCALE, 'account.deletedName'), avatar: PICTURES.person },
    });
    if (erased === 'lastAdmin') throw new AppError('LastAdmin');
    // Deleted by a call of the same session that came at the same time: the account is gone, as asked.
    if (!erased) return;
    // Invited into a group between leaving the others and the commit: left too (no one may invite a deleted account).
    for (const groupId of await this.accounts.groupIds(user.id)) await this.deps.depart(user, groupId);
    await this.ctx.realtime.kick(user.id, erased.sessionIds, SocketCloseCodes.SessionEnded);
    if (config.sysInfo.runMode === 1)
      await this.ctx.realtime.broadcast({ type: 'removeGroup', data: { group_id: user.id } }, user.id);
    else if (erased.friendIds.length)
      await this.ctx.realtime.publish(erased.friendIds, { type: 'removeGroup', data: { group_id: user.id } });
    for (const key of erased.exportKeys) await removeArchive(this.ctx.storage, key);
    for (const fileId of erased.fileIds) await this.deps.release(fileId);
  }
}
