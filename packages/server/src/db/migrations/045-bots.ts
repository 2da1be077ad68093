import { type Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Bot accounts (docs/protocol.md §11). `users.is_bot` 1 marks an account its owner runs from a
 * program: it signs in with no password (it has none), only with its access token. `bots` holds
 * each bot's owner and outgoing webhook: its URL, its Standard Webhooks secret sealed, its state
 * ('off', 'on', 'disabled') and the failed tries in a row. `bot_deliveries` holds each event owed
 * to a webhook until it is delivered or given up (`status`), the tries so far and when the next is
 * due (`next_at`); a node takes one to try by moving `claimed_until` past now (a compare-and-set),
 * and an event is owed once per bot (`event_id` unique per bot). `msg_id` is the message it tells
 * of: one withdrawn or deleted before its delivery is not delivered. A done delivery keeps no payload.
 */
export function bots(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('is_bot', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('bots')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey())
        .addColumn('owner_id', 'bigint', (c) => c.notNull())
        .addColumn('webhook_url', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('webhook_secret', 'text', (c) => c.notNull())
        .addColumn('webhook_state', 'varchar(16)', (c) => c.notNull().defaultTo('off'))
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bots_owner').on('bots').column('owner_id').execute();
      await idColumn(db.schema.createTable('bot_deliveries'), dialect)
        .addColumn('bot_id', 'bigint', (c) => c.notNull())
        .addColumn('event_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('msg_id', 'bigint', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_at', 'bigint', (c) => c.notNull())
        .addColumn('claimed_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('last_status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('done_time', 'bigint', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('bot_deliveries_event', ['bot_id', 'event_id'])
        .execute();
      await db.schema.createIndex('bot_deliveries_due').on('bot_deliveries').columns(['status', 'next_at']).execute();
      await db.schema.createIndex('bot_deliveries_bot').on('bot_deliveries').columns(['bot_id', 'id']).execute();
    },
  };
}
