import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/** Groups and members, messages, per-user conversation rows, hidden messages, announcements. */
export function chat(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('groups'), dialect)
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('avatar', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('owner_id', 'bigint', (c) => c.notNull())
        .addColumn('notice', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('setting', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable('group_members'), dialect)
        .addColumn('group_id', 'bigint', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('role', 'integer', (c) => c.notNull())
        .addColumn('nickname', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('no_speak_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('join_time', 'bigint', (c) => c.notNull())
        .addColumn('join_msg_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('group_members_pair', ['group_id', 'user_id'])
        .execute();
      await db.schema.createIndex('group_members_user').on('group_members').column('user_id').execute();

      await idColumn(db.schema.createTable('messages'), dialect)
        .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('from_user', 'bigint', (c) => c.notNull())
        .addColumn('chat_type', 'integer', (c) => c.notNull())
        .addColumn('to_id', 'bigint', (c) => c.notNull())
        .addColumn('chat_key', 'varchar(48)', (c) => c.notNull())
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('extends', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('at', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('pid', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('file_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('is_undo', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('messages_sender_client_id', ['from_user', 'client_id'])
        .execute();
      await db.schema.createIndex('messages_chat').on('messages').columns(['chat_key', 'id']).execute();
      await db.schema.createIndex('messages_to').on('messages').columns(['chat_type', 'to_id', 'id']).execute();
      await db.schema.createIndex('messages_from').on('messages').columns(['from_user', 'id']).execute();

      await db.schema
        .createTable('message_hidden')
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('msg_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('message_hidden_pk', ['user_id', 'msg_id'])
        .execute();

      await idColumn(db.schema.createTable('conversations'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('chat_key', 'varchar(48)', (c) => c.notNull())
        .addColumn('last_msg_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('last_time', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('unread', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_at', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_top', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_notice', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('read_msg_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('clear_msg_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('conversations_pair', ['user_id', 'chat_key'])
        .execute();
      await db.schema.createIndex('conversations_chat').on('conversations').column('chat_key').execute();

      await idColumn(db.schema.createTable('announcements'), dialect)
        .addColumn('title', 'varchar(128)', (c) => c.notNull())
        .addColumn('notice', 'text', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
