import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Codes } from '@sparrow/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb, signUp, startServer, type TestServer } from './harness';

/**
 * A disk with no room for a database write: the caller is told to try later (503), as an upload is
 * on a full disk, and the server writes again once there is room. SQLite's file is kept from
 * growing (`max_page_count`); PostgreSQL answers its own disk_full (53100) from a trigger, as it
 * does when its tablespace's disk is full.
 */
describeEachDb('a full disk', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server.close();
  });

  async function fillDisk(): Promise<void> {
    if (target === 'sqlite') {
      const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(server.ctx.db);
      await sql.raw(`PRAGMA max_page_count = ${rows[0]!.page_count}`).execute(server.ctx.db);
    } else {
      await sql`CREATE FUNCTION no_room() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`.execute(
        server.ctx.db,
      );
      await sql`CREATE TRIGGER no_room BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION no_room()`.execute(
        server.ctx.db,
      );
    }
  }

  async function freeDisk(): Promise<void> {
    if (target === 'sqlite') await sql.raw('PRAGMA max_page_count = 1073741823').execute(server.ctx.db);
    else {
      await sql`DROP TRIGGER no_room ON messages`.execute(server.ctx.db);
      await sql`DROP FUNCTION no_room()`.execute(server.ctx.db);
    }
  }

  it('answers 503 "storage full" to a write with no room, and writes again once there is', async () => {
    const me = await signUp(server, 'diskfull1');
    const send = (content: string) =>
      server.callRaw(
        'sendMessage',
        { id: randomUUID(), toContactId: me.userId, content },
        { token: me.token, lang: 'en' },
      );
    await fillDisk();
    let refused;
    try {
      // Until the file has to grow: the pages it has may hold a few messages yet.
      for (let i = 0; i < 200 && !refused; i++) {
        const res = await send(`${i} ${'字'.repeat(2000)}`);
        expect(res.status).not.toBe(500);
        if (res.status !== 200 || res.json.code !== 0) refused = res;
      }
    } finally {
      await freeDisk();
    }
    expect(refused?.status).toBe(503);
    expect(refused?.json).toMatchObject({
      code: Codes.Unavailable,
      msg: 'File storage is full or unavailable; please try again later',
    });
    const after = await send('there is room again');
    expect(after.json.code, after.json.msg).toBe(0);
  });
});
