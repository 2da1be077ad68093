import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Columns holding text a person writes with a limit counted in characters (graphemes): names,
 * nicknames, mottos, friend requests' notes. A character may take many code points (a family emoji
 * takes 7, a letter with its marks up to 16), so a varchar(n), counted in code points, refused on
 * PostgreSQL names the schema accepts. They become text and the route's schema is the bound.
 * SQLite never enforced a varchar's length.
 */
const PERSON_TEXT: Array<[table: string, column: string]> = [
  ['users', 'realname'],
  ['users', 'motto'],
  ['groups', 'name'],
  ['group_members', 'nickname'],
  ['friends', 'nickname'],
  ['friend_requests', 'remark'],
  ['departments', 'name'],
];

export function textWidths(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      // varchar to text keeps every index and rewrites no row on PostgreSQL.
      for (const [table, column] of PERSON_TEXT)
        await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type text`.execute(db);
    },
  };
}
