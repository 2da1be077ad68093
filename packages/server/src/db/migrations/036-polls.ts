import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Polls (投票) in groups.
 *
 * `polls`: a poll and the message that carries it (`msg_id`, 0 for the moment between its row and
 * its message), its options as a JSON array of their texts, and `closed` (1 once closed early: the
 * row a vote reads under a shared lock, so that a close waits for the votes in flight and no vote
 * commits after it). A poll is keyed by its starter and the client-made id of its message
 * (`client_id`, unique per starter), so that a retried start, or two at once, find the one poll.
 *
 * `poll_votes`: a row per voter and chosen option; the counts are always counted from these rows,
 * never kept in a column another vote could overwrite.
 */
export function polls(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('polls'), dialect)
        .addColumn('msg_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('group_id', 'bigint', (c) => c.notNull())
        .addColumn('creator', 'bigint', (c) => c.notNull())
        // Bounded by the route's schema in characters (POLL_QUESTION_MAX, POLL_OPTION_MAX × POLL_OPTIONS_MAX).
        .addColumn('question', 'text', (c) => c.notNull())
        .addColumn('options', 'text', (c) => c.notNull())
        .addColumn('multiple', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('anonymous', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deadline', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('closed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('closed_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('polls_msg').on('polls').column('msg_id').execute();
      await db.schema.createIndex('polls_client').on('polls').columns(['creator', 'client_id']).unique().execute();
      await db.schema
        .createTable('poll_votes')
        .addColumn('poll_id', 'bigint', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('option', 'integer', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('poll_votes_pk', ['poll_id', 'user_id', 'option'])
        .execute();
      await db.schema
        .createIndex('poll_votes_option')
        .on('poll_votes')
        .columns(['poll_id', 'option', 'create_time', 'user_id'])
        .execute();
    },
  };
}
