import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * The database handle's type, apart from index.ts: the helpers index.ts builds on (at-once.ts,
 * prepared.ts) name it without importing the file that imports them.
 */
export type Db = Kysely<Database>;
export type { Database };
