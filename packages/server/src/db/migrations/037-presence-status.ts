import type { Kysely } from 'kysely';

/**
 * 最近在线 and 状态: when a user's last socket went (`last_seen`, ms; null until first seen going
 * offline), who may see it (`last_seen_to`: 0 everyone who may see the profile, 1 friends, 2 nobody),
 * and a status (text, one emoji, an optional end, and `status_at`, its version, raised by every
 * change). The status is written by one statement, so two changes at once leave one of them whole,
 * and the one written last has the higher version.
 */
export function presenceStatus() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const users = () => db.schema.alterTable('users');
      await users().addColumn('last_seen', 'bigint').execute();
      await users()
        .addColumn('last_seen_to', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await users()
        .addColumn('status_text', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await users()
        .addColumn('status_emoji', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .execute();
      await users().addColumn('status_until', 'bigint').execute();
      await users()
        .addColumn('status_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
