import { PICTURES } from '@sparrow/protocol';
import { sql, type Kysely } from 'kysely';

/**
 * No avatar is empty: a person or a group without a picture of their own names the stand-in the
 * server serves (protocol `PICTURES`), which Raingad clients draw as they drew the original
 * server's default and Sparrow's client shows as the initial.
 */
export function defaultAvatars() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`update users set avatar = ${PICTURES.person} where avatar = ''`.execute(db);
      await sql`update groups set avatar = ${PICTURES.group} where avatar = ''`.execute(db);
    },
  };
}
