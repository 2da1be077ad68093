import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../../db';
import { inTransaction, lockKey, lockRow } from '../../db/locks';
import { ChainRepo } from '../im';

/** The status of an account its user deleted (users.status; 1 active, 0 disabled by an admin). */
export const DELETED_STATUS = 2;

/** What a deletion left to do after its commit: whom to tell, what to close, what to free. */
export interface Erased {
  /** Who listed the user as a friend, either way. */
  friendIds: number[];
  /** The sessions it ended. */
  sessionIds: number[];
  /** Files the user's posts, favourites, cover and (when removed) messages showed: freed if nothing else uses them. */
  fileIds: number[];
  /** Archives of the user's data exports, to remove from the store. */
  exportKeys: string[];
}

/** How the account row is left: anonymised, with a deleted status. */
export interface Anonymous {
  realname: string;
  avatar: string;
}

/** The only SQL of a user's deletion of their own account: one transaction over every table of theirs. */
export class AccountRepo {
  constructor(private readonly db: Db) {}

  /** The live groups a user is a member of. */
  async groupIds(userId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('group_members as m')
      .innerJoin('groups as g', 'g.id', 'm.group_id')
      .select('m.group_id')
      .where('m.user_id', '=', userId)
      .where('g.status', '=', 1)
      .orderBy('m.group_id')
      .execute();
    return rows.map((r) => r.group_id);
  }

  /** Whether an enabled admin other than this user is there (the last one may not delete their account). */
  async otherAdmin(userId: number, db: Db | Transaction<Database> = this.db): Promise<boolean> {
    const other = await db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 1)
      .where('status', '=', 1)
      .where('id', '!=', userId)
      .limit(1)
      .executeTakeFirst();
    return other !== undefined;
  }

  /**
   * Deletes the user's own data and leaves their row anonymised with status 2, in one transaction
   * holding the row's lock; undefined when the account was already deleted (a second call at
   * once, or a retry after success), which then changes nothing; 'lastAdmin', changing nothing,
   * when the user is the last enabled admin (two admins deleting their accounts at once take
   * turns on one lock, so the second finds the first gone).
   */
  erase(
    userId: number,
    now: number,
    opts: { removeMessages: boolean; anonymous: Anonymous },
  ): Promise<Erased | 'lastAdmin' | undefined> {
    return inTransaction(this.db, async (trx) => {
      await lockRow(trx, 'users', userId);
      const user = await trx.selectFrom('users').select(['status', 'role']).where('id', '=', userId).executeTakeFirst();
      if (!user || user.status === DELETED_STATUS) return undefined;
      if (user.role === 1) {
        await lockKey(trx, 'account-erase:admins');
        if (!(await this.otherAdmin(userId, trx))) return 'lastAdmin';
      }
      const friendIds = await this.friendsOf(trx, userId);
      const fileIds = await this.filesOf(trx, userId, opts.removeMessages);
      const sessions = await trx
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
      await trx
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
      const exports = await trx
        .selectFrom('data_exports')
        .select('storage_key')
        .where('user_id', '=', userId)
        .where('storage_key', '!=', '')
        .execute();
      await trx.deleteFrom('data_exports').where('user_id', '=', userId).execute();

      await trx
        .deleteFrom('friends')
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('friend_user_id', '=', userId)]))
        .execute();
      await trx
        .deleteFrom('friend_requests')
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('create_user', '=', userId)]))
        .execute();
      await this.eraseMoments(trx, userId);
      await trx
        .deleteFrom('favourite_files')
        .where('favourite_id', 'in', (eb) => eb.selectFrom('favourites').select('id').where('user_id', '=', userId))
        .execute();
      await trx.deleteFrom('favourites').where('user_id', '=', userId).execute();
      await trx.deleteFrom('push_subscriptions').where('user_id', '=', userId).execute();
      await trx.deleteFrom('push_settings').where('user_id', '=', userId).execute();
      await trx.deleteFrom('user_identities').where('user_id', '=', userId).execute();
      for (const table of ['user_totp', 'recovery_codes', 'passkeys', 'login_tickets', 'access_tokens'] as const)
        await trx.deleteFrom(table).where('user_id', '=', userId).execute();
      await sql`delete from blocks where blocker_id = ${userId} or blocked_id = ${userId}`.execute(trx);
      await trx.deleteFrom('conversations').where('user_id', '=', userId).execute();
      await trx.deleteFrom('message_hidden').where('user_id', '=', userId).execute();
      await trx.deleteFrom('message_reactions').where('user_id', '=', userId).execute();
      await trx.deleteFrom('poll_votes').where('user_id', '=', userId).execute();
      await new ChainRepo(trx).eraseLines(userId);
      await trx.deleteFrom('group_scans').where('user_id', '=', userId).execute();
      if (opts.removeMessages)
        await trx
          .updateTable('messages')
          .set({ is_deleted: 1 })
          .where('from_user', '=', userId)
          .where('is_deleted', '=', 0)
          .execute();
      await trx
        .updateTable('users')
        .set({
          status: DELETED_STATUS,
          deleted_at: now,
          realname: opts.anonymous.realname,
          avatar: opts.anonymous.avatar,
          password_hash: '',
          motto: '',
          sex: 2,
          setting: '{}',
          pat_suffix: '',
          role: 0,
          dep_id: 0,
          must_change_password: 0,
          update_time: now,
        })
        .where('id', '=', userId)
        .execute();
      return {
        friendIds,
        sessionIds: sessions.map((s) => s.id),
        fileIds,
        exportKeys: exports.map((e) => e.storage_key),
      };
    });
  }

  private async friendsOf(trx: Transaction<Database>, userId: number): Promise<number[]> {
    const mine = await trx.selectFrom('friends').select('friend_user_id as id').where('user_id', '=', userId).execute();
    const theirs = await trx
      .selectFrom('friends')
      .select('user_id as id')
      .where('friend_user_id', '=', userId)
      .execute();
    return [...new Set([...mine, ...theirs].map((r) => r.id))];
  }

  private async filesOf(trx: Transaction<Database>, userId: number, withMessages: boolean): Promise<number[]> {
    const images = await trx
      .selectFrom('moment_images')
      .select('file_id')
      .where('post_id', 'in', (eb) => eb.selectFrom('moment_posts').select('id').where('user_id', '=', userId))
      .execute();
    const favourites = await trx
      .selectFrom('favourite_files')
      .select('file_id')
      .where('favourite_id', 'in', (eb) => eb.selectFrom('favourites').select('id').where('user_id', '=', userId))
      .execute();
    const cover = await trx
      .selectFrom('moment_settings')
      .select('cover_file_id as file_id')
      .where('user_id', '=', userId)
      .execute();
    const sent = withMessages
      ? await trx
          .selectFrom('messages')
          .select('file_id')
          .distinct()
          .where('from_user', '=', userId)
          .where('file_id', '>', 0)
          .where('is_deleted', '=', 0)
          .execute()
      : [];
    return [...new Set([...images, ...favourites, ...cover, ...sent].map((r) => r.file_id).filter((id) => id > 0))];
  }

  /** The user's posts with everything on them, their likes, comments, notices, settings, hide lists and timeline. */
  private async eraseMoments(trx: Transaction<Database>, userId: number): Promise<void> {
    const mine = () => trx.selectFrom('moment_posts').select('id').where('user_id', '=', userId);
    await trx.deleteFrom('moment_images').where('post_id', 'in', mine()).execute();
    await trx
      .deleteFrom('moment_targets')
      .where((eb) => eb.or([eb('post_id', 'in', mine()), eb('user_id', '=', userId)]))
      .execute();
    await trx
      .deleteFrom('moment_likes')
      .where((eb) => eb.or([eb('post_id', 'in', mine()), eb('user_id', '=', userId)]))
      .execute();
    await trx
      .deleteFrom('moment_comments')
      .where((eb) => eb.or([eb('post_id', 'in', mine()), eb('user_id', '=', userId)]))
      .execute();
    await trx
      .deleteFrom('moment_notices')
      .where((eb) => eb.or([eb('post_id', 'in', mine()), eb('user_id', '=', userId), eb('actor_id', '=', userId)]))
      .execute();
    await trx
      .deleteFrom('moment_timeline')
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('author_id', '=', userId)]))
      .execute();
    await trx.deleteFrom('moment_posts').where('user_id', '=', userId).execute();
    await trx.deleteFrom('moment_settings').where('user_id', '=', userId).execute();
    await trx
      .deleteFrom('moment_hides')
      .where((eb) => eb.or([eb('owner_id', '=', userId), eb('other_id', '=', userId)]))
      .execute();
  }

  /**
   * Frees the names (account, email, phone) of accounts deleted at or before `cutoff` that equal
   * `identifier`, so that it may be registered again: the old row keeps `deleted-<id>` and no email
   * or phone.
   */
  async freeNames(identifier: string, cutoff: number): Promise<void> {
    const lower = identifier.trim().toLowerCase();
    await this.db
      .updateTable('users')
      .set({ account: sql<string>`'deleted-' || ${sql.ref('id')}`, email: '', phone: '' })
      .where('status', '=', DELETED_STATUS)
      .where('deleted_at', '<=', cutoff)
      .where((eb) => eb.or([eb('account', '=', lower), eb('email', '=', lower), eb('phone', '=', identifier.trim())]))
      .execute();
  }
}
