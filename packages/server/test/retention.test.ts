import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import sharp from 'sharp';
import { ErrorCodes, EXPORT_DOWNLOAD_PATH, type Contact, type DataExport, type Message } from '@sparrow/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from './cluster';
import {
  callAs,
  describeEachDb,
  makeFriends,
  makeGroup,
  serverForSuite,
  signUp,
  startServer,
  type TestServer,
  type TestUser,
} from './harness';

const DAY = 86_400_000;
let n = 0;

/** A picture of its own bytes (a different colour each time), or the same bytes again for the same `k`. */
const png = (k: number) =>
  sharp({ create: { width: 16, height: 8, channels: 3, background: { r: k % 256, g: (k >> 8) % 256, b: 201 } } })
    .png()
    .toBuffer();

/** The helpers a suite's tests share, over whichever server they are given. */
function helpers(get: () => TestServer) {
  const ok = async (name: Parameters<TestServer['call']>[0], body: object, as: TestUser) => {
    const res = await get().call(name, body, callAs(as));
    expect(res.code, `${name}: ${res.msg}`).toBe(0);
    return res.data;
  };
  const person = async (name: string) => signUp(get(), `${name}${++n}ret`);
  const text = (from: TestUser, to: number | string, content: string): Promise<Message> =>
    ok('sendMessage', { id: randomUUID(), toContactId: to, type: 'text', content }, from);
  const upload = async (as: TestUser, k: number) => {
    const up = await get().upload('uploadFile', { name: `p${k}.png`, bytes: await png(k) }, { token: as.token });
    expect(up.json.code, up.json.msg).toBe(0);
    return up.json.data as { file_id: number; src: string };
  };
  const image = async (from: TestUser, to: number | string, k: number): Promise<Message> => {
    const file = await upload(from, k);
    return ok(
      'sendMessage',
      { id: randomUUID(), toContactId: to, type: 'image', content: file.src, file_id: file.file_id },
      from,
    );
  };
  const history = async (as: TestUser, to: number | string): Promise<Message[]> =>
    ok('getMessageList', { toContactId: to, is_group: String(to).startsWith('group-') ? 1 : 0, limit: 100 }, as);
  const contact = async (as: TestUser, id: number | string): Promise<Contact> =>
    ((await ok('getContacts', {}, as)) as Contact[]).find((c) => String(c.id) === String(id))!;
  /** Whether the bytes behind a `/storage/…` URL are still kept. */
  const stored = async (src: string) => {
    const opened = await get().ctx.storage.open(src.slice('/storage/'.length));
    opened?.stream.destroy();
    return opened !== null;
  };
  const setDays = async (messageDays: number, fileDays: number) => {
    await get().ctx.config.set('chatInfo.messageDays', String(messageDays));
    await get().ctx.config.set('chatInfo.fileDays', String(fileDays));
  };
  return { ok, person, text, upload, image, history, contact, stored, setDays };
}

describeEachDb('retention', (target) => {
  let server!: TestServer;
  serverForSuite(target, (s) => (server = s), {
    'chatInfo.messageDays': '0',
    'chatInfo.fileDays': '0',
    'chatInfo.sendInterval': '0',
    'chatInfo.redoTime': '86400',
  });
  const { ok, person, text, image, upload, history, contact, stored, setDays } = helpers(() => server);
  const sweep = (batch?: number) => server.services.retention.sweep({ batch, pauseMs: 0 });
  /** Moves a year past whatever earlier tests left and sweeps it, so that a test counts its own messages alone. */
  const clean = async () => {
    server.clock.advance(400 * DAY);
    await setDays(365, 0);
    await sweep();
    await setDays(0, 0);
  };

  it('deletes exactly the messages older than the server keeps, in batches, with what hangs off them', async () => {
    await clean();
    const [alice, bob] = [await person('alice'), await person('bob')];
    await makeFriends(server, alice, bob);
    const old: Message[] = [];
    for (let i = 0; i < 5; i++) old.push(await text(alice, bob.userId, `ancient walrus ${i}`));
    await ok('reactMessage', { id: old[0]!.msg_id, emoji: '👍', on: 1 }, bob);
    await ok('pinMessage', { id: old[1]!.msg_id, pin: 1 }, bob);
    await ok('editMessage', { id: old[2]!.msg_id, content: 'ancient walrus edited' }, alice);
    await ok('removeMessage', { id: old[3]!.msg_id }, bob);
    server.clock.advance(10 * DAY);
    const fresh = [await text(alice, bob.userId, 'fresh walrus 1'), await text(alice, bob.userId, 'fresh walrus 2')];
    // Found before the sweep.
    const before = await ok('searchMessage', { keywords: 'ancient walrus' }, bob);
    expect((before as Message[]).length).toBeGreaterThan(0);

    await setDays(7, 0);
    // This test's old messages, and the line pinning one of them.
    const { db } = server.ctx;
    const cutoff = server.clock.now() - 7 * DAY;
    const older = await db.selectFrom('messages').select('id').where('create_time', '<', cutoff).execute();
    expect(older.length).toBeGreaterThanOrEqual(5);
    const report = await sweep(2);
    expect(report).toMatchObject({ messages: older.length });
    expect(report!.batches).toBeGreaterThanOrEqual(3);

    expect((await history(bob, alice.userId)).map((m) => m.msg_id)).toEqual(fresh.map((m) => m.msg_id));
    expect(await ok('searchMessage', { keywords: 'ancient walrus' }, bob)).toEqual([]);
    expect(((await ok('searchMessage', { keywords: 'fresh walrus' }, bob)) as Message[]).length).toBe(2);
    const row = await contact(bob, alice.userId);
    expect(row.lastContent).toContain('fresh walrus 2');
    expect(row.unread).toBe(2);
    const ids = old.map((m) => m.msg_id);
    for (const table of [
      'message_reactions',
      'message_edits',
      'chat_pins',
      'message_hidden',
      'message_outbox',
    ] as const)
      expect(await db.selectFrom(table).select('msg_id').where('msg_id', 'in', ids).execute(), table).toEqual([]);
    expect(await db.selectFrom('messages').select('id').where('id', 'in', ids).execute()).toEqual([]);
    // Nothing is older now: a second sweep deletes nothing.
    expect(await sweep()).toMatchObject({ messages: 0 });
  });

  it("applies the stricter of a group's own retention and the server's, the owner alone setting it", async () => {
    await clean();
    const [owner, admin, member] = [await person('owner'), await person('admin'), await person('member')];
    const strict = await makeGroup(server, owner, [admin, member]);
    const loose = await makeGroup(server, owner, [admin, member]);
    await ok('setManager', { id: strict, user_id: admin.userId, role: 2 }, owner);
    const inStrict = await text(member, strict, 'old in strict');
    const inLoose = await text(member, loose, 'old in loose');
    server.clock.advance(10 * DAY);
    const newer = await text(member, strict, 'new in strict');

    // An administrator may change other switches, not how long messages are kept.
    const refused = await server.call('groupSetting', { id: strict, setting: { retention: 7 } }, callAs(admin));
    expect(refused.code).toBe(ErrorCodes.Forbidden);
    await ok('groupSetting', { id: strict, setting: { retention: 7 } }, owner);
    // Members see it in the group's record.
    const info = await ok('groupInfo', { group_id: strict }, member);
    expect(info.setting.retention).toBe(7);
    // The change starts a sweep by itself, shortly.
    await expect
      .poll(async () => (await history(member, strict)).map((m) => m.msg_id), { timeout: 10_000 })
      .not.toContain(inStrict.msg_id);
    expect((await history(member, strict)).map((m) => m.msg_id)).toContain(newer.msg_id);
    expect((await history(member, loose)).map((m) => m.msg_id)).toContain(inLoose.msg_id);

    // The server's 5 days are stricter than nothing (the loose group) and than the strict group's 7.
    server.clock.advance(1 * DAY);
    await setDays(5, 0);
    await sweep();
    expect((await history(member, loose)).map((m) => m.msg_id)).not.toContain(inLoose.msg_id);
    expect((await history(member, strict)).map((m) => m.msg_id)).toContain(newer.msg_id);
    // The group's 7 days stricter than the server's 365: only its own policy is walked further.
    await setDays(365, 0);
    server.clock.advance(7 * DAY);
    await sweep();
    expect((await history(member, strict)).map((m) => m.msg_id)).not.toContain(newer.msg_id);
  });

  it('expires old files: the message stays marked expired, the bytes are freed, an upload stores them again', async () => {
    await clean();
    const [alice, bob] = [await person('alice'), await person('bob')];
    await makeFriends(server, alice, bob);
    const k = 1000 + n;
    const sent = await image(alice, bob.userId, k);
    expect(await stored(sent.content)).toBe(true);
    server.clock.advance(10 * DAY);
    await setDays(0, 7);
    const report = await sweep();
    expect(report).toMatchObject({ messages: 0, expiredFiles: 1, freedFiles: 1 });
    expect(await stored(sent.content)).toBe(false);
    const [shown] = (await history(bob, alice.userId)).filter((m) => m.msg_id === sent.msg_id);
    expect(shown).toMatchObject({ type: 'image', extends: { expired: 1 } });
    const file = await server.ctx.repos.files.byId(Number(sent.extends.file_id));
    expect(file!.removed_at).toBeGreaterThan(0);

    // Sending the freed file by its id is refused; the same bytes uploaded again are stored and sent.
    const stale = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: bob.userId, type: 'image', content: sent.content, file_id: file!.id },
      { token: alice.token, lang: 'en' },
    );
    expect(stale.code).toBe(ErrorCodes.FileExpired);
    expect(stale.msg).toBe('The file has expired or was cleaned up');
    const again = await image(alice, bob.userId, k);
    expect(again.extends.file_id).toBe(file!.id);
    expect(await stored(again.content)).toBe(true);
    expect((await server.ctx.repos.files.byId(file!.id))!.removed_at).toBe(0);
  });

  it("frees the files of a group's cleared history, and keeps a file another message still carries", async () => {
    await setDays(0, 0);
    const [owner, a, b] = [await person('owner'), await person('a'), await person('b')];
    const group = await makeGroup(server, owner, [a, b]);
    const k = 2000 + n;
    const only = await image(owner, group, k);
    const shared = await image(owner, group, k + 1);
    // The same bytes in a private chat: one stored file, two messages.
    const elsewhere = await image(owner, a.userId, k + 1);
    expect(elsewhere.extends.file_id).toBe(shared.extends.file_id);
    await ok('clearMessage', { id: group }, owner);
    expect(await stored(only.content)).toBe(false);
    expect(await stored(shared.content)).toBe(true);
    // Once the other message goes too, nothing uses it.
    await ok('undoMessage', { id: elsewhere.msg_id }, owner);
    expect(await stored(shared.content)).toBe(false);
  });

  it('keeps a file a send names while it is being freed, or refuses the send: never a message without its bytes', async () => {
    await setDays(0, 0);
    const [alice, bob] = [await person('alice'), await person('bob')];
    await makeFriends(server, alice, bob);
    let kept = 0;
    let refused = 0;
    for (let i = 0; i < 8; i++) {
      const file = await upload(alice, 3000 + n * 10 + i);
      const [, sent] = await Promise.all([
        server.services.files.freeUnused(file.file_id),
        server.call(
          'sendMessage',
          { id: randomUUID(), toContactId: bob.userId, type: 'image', content: file.src, file_id: file.file_id },
          callAs(alice),
        ),
      ]);
      const row = await server.ctx.repos.files.byId(file.file_id);
      if (sent.code === 0) {
        kept++;
        expect(await stored(file.src)).toBe(true);
        expect(row!.removed_at).toBe(0);
      } else {
        refused++;
        expect(sent.code).toBe(ErrorCodes.FileExpired);
        expect(await stored(file.src)).toBe(false);
        expect(row!.removed_at).toBeGreaterThan(0);
      }
    }
    expect(kept + refused).toBe(8);
  });

  it('stores a file again whole when it is freed between an upload finding it and the upload’s turn', async () => {
    await setDays(0, 0);
    const [alice, bob] = [await person('alice'), await person('bob')];
    await makeFriends(server, alice, bob);
    const k = 4000 + n;
    const first = await upload(alice, k);
    const before = (await server.ctx.repos.files.byId(first.file_id))!;
    expect(await stored(before.thumb)).toBe(true);
    const files = server.ctx.repos.files;
    const byHash = files.byHash;
    // The upload reads the row with its bytes kept; then, before its turn, the file is freed.
    files.byHash = async (hash) => {
      files.byHash = byHash;
      const row = await byHash.call(files, hash);
      expect(await server.services.files.freeUnused(first.file_id)).toBe(true);
      return row;
    };
    try {
      const again = await upload(alice, k);
      expect(again.file_id).toBe(first.file_id);
    } finally {
      files.byHash = byHash;
    }
    const row = (await server.ctx.repos.files.byId(first.file_id))!;
    expect(row.removed_at).toBe(0);
    expect(await stored(first.src)).toBe(true);
    expect(row.thumb).toBe(before.thumb);
    expect(await stored(row.thumb)).toBe(true);
    const sent = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: bob.userId, type: 'image', content: first.src, file_id: first.file_id },
      callAs(alice),
    );
    expect(sent.code, sent.msg).toBe(0);
  });

  it('never removes a thumbnail’s bytes another file stores, nor a file’s bytes another file shows as its thumbnail', async () => {
    await setDays(0, 0);
    const [alice, bob] = [await person('alice'), await person('bob')];
    await makeFriends(server, alice, bob);
    const shown = await image(alice, bob.userId, 5000 + n);
    const picture = (await server.ctx.repos.files.byId(Number(shown.extends.file_id)))!;
    // The thumbnail's own bytes, uploaded as a picture: the same content key.
    const opened = (await server.ctx.storage.open(picture.thumb.slice('/storage/'.length)))!;
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    const up = await server.upload(
      'uploadFile',
      { name: 'thumb.webp', bytes: Buffer.concat(chunks) },
      { token: alice.token },
    );
    expect(up.json.code, up.json.msg).toBe(0);
    const copy = up.json.data as { file_id: number; src: string };
    expect(copy.src).toBe(picture.thumb);

    // The copy, used by nothing, is freed: the picture's thumbnail stays.
    expect(await server.services.files.freeUnused(copy.file_id)).toBe(true);
    expect(await stored(picture.thumb)).toBe(true);

    // The other way round: the copy sent, the picture withdrawn and freed: the copy's bytes stay.
    const again = await server.upload(
      'uploadFile',
      { name: 'thumb.webp', bytes: Buffer.concat(chunks) },
      { token: alice.token },
    );
    expect(again.json.data.file_id).toBe(copy.file_id);
    await ok(
      'sendMessage',
      { id: randomUUID(), toContactId: bob.userId, type: 'image', content: copy.src, file_id: copy.file_id },
      alice,
    );
    await ok('undoMessage', { id: shown.msg_id }, alice);
    expect((await server.ctx.repos.files.byId(picture.id))!.removed_at).toBeGreaterThan(0);
    expect(await stored(`/storage/${picture.storage_key}`)).toBe(false);
    expect(await stored(copy.src)).toBe(true);
  });

  it('lets sends go through while it sweeps', async () => {
    await clean();
    const [alice, bob] = [await person('alice'), await person('bob')];
    await makeFriends(server, alice, bob);
    await text(alice, bob.userId, 'first');
    const key = `p:${Math.min(alice.userId, bob.userId)}:${Math.max(alice.userId, bob.userId)}`;
    // Many old messages at once, written straight into the table.
    const old = server.clock.now();
    await server.ctx.db
      .insertInto('messages')
      .values(
        Array.from({ length: 400 }, (_, i) => ({
          client_id: randomUUID(),
          from_user: alice.userId,
          chat_type: 0,
          to_id: bob.userId,
          chat_key: key,
          type: 'text',
          content: `bulk ${i}`,
          extends: '{}',
          at: '',
          pid: 0,
          file_id: 0,
          is_undo: 0,
          is_deleted: 0,
          create_time: old,
        })),
      )
      .execute();
    server.clock.advance(10 * DAY);
    await setDays(7, 0);
    const sweeping = server.services.retention.sweep({ batch: 25, pauseMs: 1 });
    const sends = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.call(
          'sendMessage',
          { id: randomUUID(), toContactId: bob.userId, type: 'text', content: `during ${i}` },
          callAs(alice),
        ),
      ),
    );
    const report = await sweeping;
    expect(sends.map((s) => s.code)).toEqual(sends.map(() => 0));
    expect(report!.messages).toBe(401);
    const left = await history(bob, alice.userId);
    expect(left.map((m) => m.content).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `during ${i}`).sort());
  });

  it('sweeps on one node at a time: two nodes asked at once delete each message once', async () => {
    if (target !== 'postgres') return;
    const other = await startServer(target, { env: { databaseUrl: server.ctx.env.databaseUrl } });
    try {
      await clean();
      const [alice, bob] = [await person('alice'), await person('bob')];
      await makeFriends(server, alice, bob);
      for (let i = 0; i < 30; i++) await text(alice, bob.userId, `two nodes ${i}`);
      server.clock.advance(10 * DAY);
      other.clock.t = server.clock.t;
      await setDays(7, 0);
      await other.ctx.config.load();
      const reports = await Promise.all([
        server.services.retention.sweep({ batch: 4, pauseMs: 2 }),
        other.services.retention.sweep({ batch: 4, pauseMs: 2 }),
      ]);
      // One took the lease and swept; the other found it taken (null), or came after and found nothing.
      const deleted = reports.reduce((sum, r) => sum + (r?.messages ?? 0), 0);
      expect(deleted).toBe(30);
      expect(reports.filter((r) => r && r.messages > 0)).toHaveLength(1);
      expect(await history(bob, alice.userId)).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describeEachDb('retention with the uploads in an S3-compatible bucket', (target) => {
  const BUCKET = 'sparrow-retention';
  const KEY = 'S3RVER';
  let s3: S3rver;
  let bucket: S3Client;
  let server!: TestServer;
  let dir: string;
  beforeAll(async () => {
    const port = await freePort();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-s3-retention-'));
    s3 = new S3rver({ address: '127.0.0.1', port, silent: true, directory: dir, configureBuckets: [{ name: BUCKET }] });
    await s3.run();
    const endpoint = `http://127.0.0.1:${port}`;
    bucket = new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: KEY, secretAccessKey: KEY },
    });
    server = await startServer(target, {
      env: {
        storageUrl: `s3://${KEY}:${KEY}@${BUCKET}/uploads?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=1`,
      },
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    bucket?.destroy();
    await s3?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const objects = async () =>
    ((await bucket.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'uploads/' }))).Contents ?? []).map(
      (o) => `/storage/${o.Key!.slice('uploads/'.length)}`,
    );
  const { ok, person, image, setDays } = helpers(() => server);

  it('removes expired and unused files from the bucket, and keeps what is still used', async () => {
    const [alice, bob] = [await person('alice'), await person('bob')];
    await makeFriends(server, alice, bob);
    const old = await image(alice, bob.userId, 1);
    const withdrawn = await image(alice, bob.userId, 2);
    expect(await objects()).toEqual(expect.arrayContaining([old.content, withdrawn.content]));
    await ok('undoMessage', { id: withdrawn.msg_id }, alice);
    expect(await objects()).not.toContain(withdrawn.content);
    server.clock.advance(10 * DAY);
    const fresh = await image(alice, bob.userId, 3);
    await setDays(0, 7);
    expect(await server.services.retention.sweep({ pauseMs: 0 })).toMatchObject({ expiredFiles: 1, freedFiles: 1 });
    const left = await objects();
    expect(left).not.toContain(old.content);
    expect(left).toContain(fresh.content);
  });

  it('keeps a data export in the bucket under a key of its own, downloaded by its owner and removed once expired', async () => {
    const [alice, bob] = [await person('alice'), await person('bob')];
    await makeFriends(server, alice, bob);
    await image(alice, bob.userId, 7);
    const asked = (await ok('exportRequest', {}, alice)) as DataExport;
    let state = '';
    for (let i = 0; i < 200 && state !== 'done'; i++) {
      server.services.exports.wake();
      await server.services.exports.idle();
      state = ((await ok('exportStatus', { id: asked.id }, alice)) as DataExport).state;
    }
    expect(state).toBe('done');
    const { storage_key: key } = await server.ctx.db
      .selectFrom('data_exports')
      .select('storage_key')
      .where('id', '=', asked.id)
      .executeTakeFirstOrThrow();
    expect(key).toMatch(/^private\//);
    expect(await objects()).toContain(`/storage/${key}`);
    expect((await fetch(`${server.url}/storage/${key}`)).status).toBe(404);
    const res = await fetch(`${server.url}${EXPORT_DOWNLOAD_PATH}?id=${asked.id}`, {
      headers: { authorization: alice.token },
    });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    // Its bytes uploaded and sent: the upload outlives the archive.
    const up = await server.upload('uploadFile', { name: 'data.zip', bytes }, { token: bob.token });
    expect(up.json.code, up.json.msg).toBe(0);
    await ok(
      'sendMessage',
      {
        id: randomUUID(),
        toContactId: alice.userId,
        type: 'file',
        content: up.json.data.src,
        file_id: up.json.data.file_id,
      },
      bob,
    );
    server.clock.advance(8 * DAY);
    expect(await server.services.exports.sweep()).toBeGreaterThanOrEqual(1);
    const left = await objects();
    expect(left).not.toContain(`/storage/${key}`);
    expect(left).toContain(up.json.data.src);
  });
});
