import { sql, type Kysely } from 'kysely';
import { deviceKey } from '../../modules/auth/device-key';

/** How many devices one statement of the backfill writes. */
const BATCH = 500;

/**
 * 登录设备: `user_devices` holds each device a user has signed in on (`device_key`, see
 * modules/auth/device-key.ts), first seen at `first_seen`. A sign-in whose device is not there yet
 * is from a new device: the row's insert decides it, once, under the primary key, however many
 * sign-ins of that device arrive at once on however many servers. Filled here from the sessions
 * already made, so that no one is told of a device they signed in on before.
 *
 * `qr_logins.cid`: the install id of the page that asked for a code, for the session it becomes.
 */
export function knownDevices() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('user_devices')
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('device_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('first_seen', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_devices_pkey', ['user_id', 'device_key'])
        .execute();
      await db.schema
        .alterTable('qr_logins')
        .addColumn('cid', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .execute();

      const { rows } = await sql<{ user_id: number; user_agent: string; cid: string; first: number }>`
        select user_id, user_agent, cid, min(create_time) as first from sessions group by user_id, user_agent, cid`.execute(
        db,
      );
      const devices = new Map<string, { user_id: number; device_key: string; first_seen: number }>();
      for (const r of rows) {
        const key = deviceKey(r.user_agent, r.cid);
        const id = `${r.user_id}:${key}`;
        const seen = devices.get(id);
        const first = Number(r.first);
        if (!seen) devices.set(id, { user_id: Number(r.user_id), device_key: key, first_seen: first });
        else seen.first_seen = Math.min(seen.first_seen, first);
      }
      const all = [...devices.values()];
      for (let i = 0; i < all.length; i += BATCH) {
        const values = all.slice(i, i + BATCH).map((d) => sql`(${d.user_id}, ${d.device_key}, ${d.first_seen})`);
        await sql`insert into user_devices (user_id, device_key, first_seen) values ${sql.join(values)}
          on conflict do nothing`.execute(db);
      }
    },
  };
}
