import type { Db } from '../../db';
import { RequestStatus } from '../friend';

/** A friend request as the `system` row of the conversation list shows it. */
export interface RequestPreview {
  createTime: number;
  /** The sender's real name ('' when the account is gone). */
  fromName: string;
}

/**
 * What the conversation list reads of friend requests for its `system` row. The friend module
 * owns these tables; this read lives here until its repository offers it.
 */
export class ContactRepo {
  constructor(private readonly db: Db) {}

  /** The newest request to `userId` still waiting for an answer, with its sender's name. */
  async newestPendingTo(userId: number): Promise<RequestPreview | undefined> {
    const newest = await this.db
      .selectFrom('friend_requests')
      .select(['create_time', 'create_user'])
      .where('user_id', '=', userId)
      .where('status', '=', RequestStatus.Pending)
      .orderBy('create_time', 'desc')
      .executeTakeFirst();
    if (!newest) return undefined;
    const from = await this.db
      .selectFrom('users')
      .select('realname')
      .where('id', '=', newest.create_user)
      .executeTakeFirst();
    return { createTime: newest.create_time, fromName: from?.realname ?? '' };
  }
}
