import { sql } from 'kysely';
import type { Db } from '../../db';

/** What the readiness probe asks of the database. */
export class OpsRepo {
  constructor(private readonly db: Db) {}

  /** A round trip to the database; throws when it cannot answer. */
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }
}
