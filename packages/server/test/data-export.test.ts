import { randomUUID } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import sharp from 'sharp';
import { ErrorCodes, EXPORT_DOWNLOAD_PATH, type DataExport } from '@sparrow/protocol';
import { expect, it } from 'vitest';
import {
  callAs,
  describeEachDb,
  makeFriends,
  serverForSuite,
  signUp,
  TestSocket,
  type TestServer,
  type TestUser,
} from './harness';

const DAY = 86_400_000;
let n = 0;

/** The entries of a zip archive by name, read from its central directory (stored or deflated). */
function unzip(zip: Buffer): Map<string, Buffer> {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('not a zip archive');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataAt, dataAt + compressed);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

describeEachDb('downloading my data', (target) => {
  let server!: TestServer;
  const { ok } = serverForSuite(target, (s) => (server = s), {
    'account.exportDays': '7',
    'chatInfo.sendInterval': '0',
  });

  const person = async (name: string) => ({
    ...(await signUp(server, `${name}${++n}exp`, 'secret123', name)),
    lang: 'en',
  });

  /** Waits until the background build has finished the export. */
  async function finished(as: TestUser, id: number): Promise<DataExport> {
    for (let i = 0; i < 200; i++) {
      await server.services.exports.idle();
      const status = (await ok('exportStatus', { id }, as)) as DataExport;
      if (status.state === 'done' || status.state === 'failed') return status;
      server.services.exports.wake();
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the export did not finish');
  }

  const download = (as: TestUser, id: number) =>
    fetch(`${server.url}${EXPORT_DOWNLOAD_PATH}?id=${id}`, { headers: { authorization: as.token } });

  it('builds an archive of my profile, contacts, messages, moments, favourites and sent files, with progress pushed', async () => {
    const alice = await person('alice');
    const bob = await person('bob');
    await makeFriends(server, alice, bob);
    await ok('sendMessage', { id: randomUUID(), toContactId: bob.userId, type: 'text', content: 'x < y & "z"' }, alice);
    const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 9, g: 8, b: 7 } } })
      .png()
      .toBuffer();
    const up = await server.upload('uploadFile', { name: 'pic.png', bytes }, { token: alice.token });
    expect(up.json.code, up.json.msg).toBe(0);
    await ok(
      'sendMessage',
      {
        id: randomUUID(),
        toContactId: bob.userId,
        type: 'image',
        content: up.json.data.src,
        file_id: up.json.data.file_id,
      },
      alice,
    );
    await ok('momentsPublish', { id: randomUUID(), content: 'a <post> & more', visibility: 1 }, alice);
    const socket = await TestSocket.bound(server, alice.userId, alice.token);

    const asked = (await ok('exportRequest', {}, alice)) as DataExport;
    expect(['queued', 'running', 'done']).toContain(asked.state);
    const done = await finished(alice, asked.id);
    expect(done.state).toBe('done');
    expect(done.progress).toBe(100);
    expect(done.size).toBeGreaterThan(0);
    expect(done.expire_time).toBe(
      (
        await server.ctx.db
          .selectFrom('data_exports')
          .select('expires_at')
          .where('id', '=', asked.id)
          .executeTakeFirstOrThrow()
      ).expires_at,
    );
    const pushed = await socket.waitFor((f) => f.type === 'dataExport' && f.data.state === 'done');
    expect(pushed.data.url).toBe(done.url);
    socket.close();

    const res = await download(alice, asked.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const zip = unzip(Buffer.from(await res.arrayBuffer()));
    const profile = JSON.parse(zip.get('profile.json')!.toString());
    expect(profile.user_id).toBe(alice.userId);
    const contacts = JSON.parse(zip.get('contacts.json')!.toString());
    expect(contacts.map((c: any) => c.id)).toContain(bob.userId);
    const messages = JSON.parse(zip.get('messages.json')!.toString());
    expect(messages.find((m: any) => m.content === 'x < y & "z"')).toMatchObject({
      chat: { type: 'private', id: bob.userId },
    });
    const image = messages.find((m: any) => m.type === 'image');
    expect(zip.get(image.file)?.equals(bytes)).toBe(true);
    const moments = JSON.parse(zip.get('moments.json')!.toString());
    expect(moments[0].content).toBe('a <post> & more');
    const html = zip.get('index.html')!.toString();
    expect(html).toContain('x &#60; y &#38; &#34;z&#34;');
    expect(html).not.toMatch(/<script/i);
  });

  it('builds one export at a time per user: a second request answers the first', async () => {
    const alice = await person('alice');
    const answers = (await Promise.all([
      ok('exportRequest', {}, alice),
      ok('exportRequest', {}, alice),
    ])) as DataExport[];
    const first = answers[0]!;
    // Both answers name the same export, unless the first was already done when the second came.
    const rows = await server.ctx.db
      .selectFrom('data_exports')
      .select(['id', 'state'])
      .where('user_id', '=', alice.userId)
      .execute();
    if (answers[1]!.id !== first.id) expect(rows.find((r) => r.id === first.id)?.state).toBe('done');
    await finished(alice, first.id);
  });

  it('lets only the owner download: another user, no session and an unknown id are not found', async () => {
    const alice = await person('alice');
    const mallory = await person('mallory');
    const asked = (await ok('exportRequest', {}, alice)) as DataExport;
    await finished(alice, asked.id);
    expect((await download(mallory, asked.id)).status).toBe(404);
    expect((await download(alice, asked.id + 100_000)).status).toBe(404);
    const anonymous = await fetch(`${server.url}${EXPORT_DOWNLOAD_PATH}?id=${asked.id}`);
    expect(anonymous.status).toBe(401);
    expect((await server.call('exportStatus', { id: asked.id }, callAs(mallory))).code).toBe(ErrorCodes.NotFound);
    expect((await download(alice, asked.id)).status).toBe(200);
  });

  it('deletes the archive once its days are over, and a new request starts again', async () => {
    const alice = await person('alice');
    const asked = (await ok('exportRequest', {}, alice)) as DataExport;
    await finished(alice, asked.id);
    const key = (
      await server.ctx.db
        .selectFrom('data_exports')
        .select('storage_key')
        .where('id', '=', asked.id)
        .executeTakeFirstOrThrow()
    ).storage_key;
    server.clock.advance(8 * DAY);
    await server.services.exports.idle();
    expect(await server.services.exports.sweep()).toBeGreaterThanOrEqual(1);
    expect((await ok('exportStatus', { id: asked.id }, alice)).state).toBe('expired');
    expect(await server.ctx.storage.open(key)).toBeNull();
    expect((await download(alice, asked.id)).status).toBe(404);
    const again = (await ok('exportRequest', {}, alice)) as DataExport;
    expect(again.id).not.toBe(asked.id);
    expect((await finished(alice, again.id)).state).toBe('done');
  });

  it('keeps an archive under a key of its own: an upload of the same bytes outlives its expiry and its owner’s deletion', async () => {
    const alice = await person('alice');
    const carol = await person('carol');
    const bob = await person('bob');
    await makeFriends(server, alice, bob);
    await makeFriends(server, carol, bob);
    const archiveOf = async (who: TestUser) => {
      const asked = (await ok('exportRequest', {}, who)) as DataExport;
      expect((await finished(who, asked.id)).state).toBe('done');
      const res = await download(who, asked.id);
      expect(res.status).toBe(200);
      const row = await server.ctx.db
        .selectFrom('data_exports')
        .select('storage_key')
        .where('id', '=', asked.id)
        .executeTakeFirstOrThrow();
      return { id: asked.id, key: row.storage_key, bytes: Buffer.from(await res.arrayBuffer()) };
    };
    /** Bob uploads the archive's bytes and sends them to its owner. */
    const uploadCopy = async (bytes: Buffer, to: TestUser) => {
      const up = await server.upload('uploadFile', { name: 'data.zip', bytes }, { token: bob.token });
      expect(up.json.code, up.json.msg).toBe(0);
      const file = up.json.data as { file_id: number; src: string };
      await ok(
        'sendMessage',
        { id: randomUUID(), toContactId: to.userId, type: 'file', content: file.src, file_id: file.file_id },
        bob,
      );
      return file.src;
    };
    const served = async (src: string) => {
      const res = await fetch(`${server.url}${src}`);
      return res.status === 200 ? Buffer.from(await res.arrayBuffer()) : null;
    };

    const mine = await archiveOf(alice);
    expect(mine.key).toMatch(/^private\//);
    // Not served where uploads are: only through the owner's download.
    expect((await fetch(`${server.url}/storage/${mine.key}`)).status).toBe(404);
    const copy = await uploadCopy(mine.bytes, alice);
    expect(copy).not.toBe(`/storage/${mine.key}`);
    server.clock.advance(8 * DAY);
    await server.services.exports.idle();
    expect(await server.services.exports.sweep()).toBeGreaterThanOrEqual(1);
    expect(await server.ctx.storage.open(mine.key)).toBeNull();
    expect((await served(copy))?.equals(mine.bytes)).toBe(true);

    const hers = await archiveOf(carol);
    const hersCopy = await uploadCopy(hers.bytes, carol);
    expect((await server.call('accountDelete', { password: 'secret123' }, callAs(carol))).code).toBe(0);
    expect(await server.ctx.storage.open(hers.key)).toBeNull();
    expect((await served(hersCopy))?.equals(hers.bytes)).toBe(true);
  });

  it('picks up an export a stopped node left running, and never builds one another node holds', async () => {
    const alice = await person('alice');
    const now = server.clock.now();
    const row = await server.ctx.db
      .insertInto('data_exports')
      .values({
        user_id: alice.userId,
        state: 'running',
        progress: 40,
        lease_until: now - 1,
        attempts: 1,
        create_time: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // A node that holds a live lease keeps it: a claim now loses.
    const held = await server.ctx.db
      .insertInto('data_exports')
      .values({
        user_id: (await person('bob')).userId,
        state: 'running',
        lease_until: now + 60_000,
        attempts: 1,
        create_time: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await server.ctx.repos.exports.claim(held.id, now, now + 60_000)).toBeUndefined();
    server.services.exports.wake();
    expect((await finished(alice, row.id)).state).toBe('done');
    const heldNow = await server.ctx.db
      .selectFrom('data_exports')
      .select('state')
      .where('id', '=', held.id)
      .executeTakeFirstOrThrow();
    expect(heldNow.state).toBe('running');
    await server.ctx.db.deleteFrom('data_exports').where('id', '=', held.id).execute();
  });
});
