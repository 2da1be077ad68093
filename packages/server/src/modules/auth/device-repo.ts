import type { Db } from '../../db';

/** The only SQL on `user_devices` (migration 041): the devices each user has signed in on. */
export class DeviceRepo {
  constructor(private readonly db: Db) {}

  /**
   * Records that a user signed in on a device. Answers whether this call wrote it (a device not seen
   * before: of sign-ins of one device at once, on any server, exactly one) and whether the user had
   * signed in on another device before it.
   */
  async remember(userId: number, key: string, now: number): Promise<{ fresh: boolean; hadOthers: boolean }> {
    const written = await this.db
      .insertInto('user_devices')
      .values({ user_id: userId, device_key: key, first_seen: now })
      .onConflict((oc) => oc.columns(['user_id', 'device_key']).doNothing())
      .returning('device_key')
      .executeTakeFirst();
    if (!written) return { fresh: false, hadOthers: true };
    const other = await this.db
      .selectFrom('user_devices')
      .select('device_key')
      .where('user_id', '=', userId)
      .where('device_key', '!=', key)
      .limit(1)
      .executeTakeFirst();
    return { fresh: true, hadOthers: other !== undefined };
  }
}
