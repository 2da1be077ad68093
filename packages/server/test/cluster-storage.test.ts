import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { routes } from '@sparrow/protocol';
import { describeWithRedis, freePort, friendsOf, type Member, Node } from './cluster';
import { createPgDatabase, dbTargets } from './harness';

const BUCKET = 'sparrow-uploads';
/** s3rver takes this key pair and no other. */
const KEY = 'S3RVER';

const picture = (background: string) =>
  sharp({ create: { width: 640, height: 480, channels: 3, background } })
    .png()
    .toBuffer();

async function uploadThrough(node: Node, token: string, bytes: Buffer, message: object) {
  const form = new FormData();
  form.append('message', JSON.stringify(message));
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'photo.png');
  const res = await fetch(`${node.url}${routes.uploadFile.path}`, {
    method: 'POST',
    body: form,
    headers: { authorization: token, 'accept-language': 'en' },
  });
  return (await res.json()) as { code: number; data: any };
}

async function get(node: Node, url: string) {
  const res = await fetch(`${node.url}${url}`);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

// Two processes with data folders of their own share uploads only through the bucket; they share
// a database only on PostgreSQL.
const postgres = dbTargets().includes('postgres');

describeWithRedis('uploads in an S3-compatible store, two server processes with their own data folders', (redisUrl) => {
  if (!postgres) {
    it.skip('needs DATABASE_URL (PostgreSQL) for two processes to share a database', () => undefined);
    return;
  }
  let s3: S3rver;
  let s3Options: ConstructorParameters<typeof S3rver>[0];
  let bucket: S3Client;
  let a: Node;
  let b: Node;
  let dropDb: () => Promise<void>;
  const dirs: string[] = [];

  const objects = async () =>
    ((await bucket.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'uploads/' }))).Contents ?? []).map(
      (o) => o.Key,
    );

  beforeAll(async () => {
    const s3Port = await freePort();
    const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-s3-'));
    dirs.push(s3Dir);
    s3 = new S3rver({
      address: '127.0.0.1',
      port: s3Port,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: BUCKET }],
    });
    await s3.run();
    s3Options = { address: '127.0.0.1', port: s3Port, silent: true, directory: s3Dir };
    const endpoint = `http://127.0.0.1:${s3Port}`;
    bucket = new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: KEY, secretAccessKey: KEY },
    });
    const db = await createPgDatabase();
    dropDb = db.drop;
    const shared = {
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `sparrow-test-${randomUUID()}:`,
      STORAGE_URL: `s3://${KEY}:${KEY}@${BUCKET}/uploads?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=1`,
    };
    const nodes = [];
    for (let i = 0; i < 2; i++) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-node-'));
      dirs.push(dataDir);
      nodes.push(new Node(await freePort(), { ...shared, DATA_DIR: dataDir }));
    }
    [a, b] = nodes as [Node, Node];
    await a.start();
    await b.start();
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    bucket?.destroy();
    await s3?.close();
    await dropDb?.();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  let alice: Member;
  let bob: Member;
  let stranger: Member;

  it('serves an image and its thumbnail uploaded through node A from node B, and neither data folder holds it', async () => {
    [alice, bob] = (await friendsOf(a, 's3user', 2)) as [Member, Member];
    await b.call('register', { account: 's3stranger', password: 'secret123', realname: 'stranger' });
    const login = await b.call('login', { account: 's3stranger', password: 'secret123' });
    stranger = { userId: login.data.userInfo.user_id, token: login.data.authToken };

    const png = await picture('#3366aa');
    const sent = await uploadThrough(a, alice.token, png, {
      id: randomUUID(),
      toContactId: bob.userId,
      type: 'image',
      content: '',
    });
    expect(sent.code).toBe(0);
    const { content: src, extends: ext } = sent.data;
    expect(src).toMatch(/^\/storage\/[0-9a-f]{2}\/[0-9a-f]{64}\.png$/);
    expect(ext.thumb).toMatch(/^\/storage\/.+\.webp$/);

    const original = await get(b, src);
    expect(original.status).toBe(200);
    expect(original.body.equals(png)).toBe(true);
    expect(original.headers.get('content-type')).toBe('image/png');
    expect(original.headers.get('content-length')).toBe(String(png.length));
    expect(original.headers.get('x-content-type-options')).toBe('nosniff');
    const thumb = await get(b, ext.thumb);
    expect(thumb.status).toBe(200);
    expect(await sharp(thumb.body).metadata()).toMatchObject({ format: 'webp', width: 400, height: 300 });

    expect(await objects()).toEqual(
      expect.arrayContaining([
        `uploads${src.slice('/storage'.length)}`,
        `uploads${ext.thumb.slice('/storage'.length)}`,
      ]),
    );
    for (const dir of dirs.slice(1)) expect(fs.existsSync(path.join(dir, 'uploads'))).toBe(false);
    expect((await get(b, `/storage/${'0'.repeat(2)}/${'0'.repeat(64)}.png`)).status).toBe(404);
  });

  it('keeps the access rules through node B: the receiver may take the file on, a stranger may not', async () => {
    const png = await picture('#aa3366');
    const sent = await uploadThrough(a, alice.token, png, {
      id: randomUUID(),
      toContactId: bob.userId,
      type: 'image',
      content: '',
    });
    const fileId = sent.data.extends.file_id;
    const refused = await b.call('emojiAdd', { file_id: fileId }, stranger.token);
    const missing = await b.call('emojiAdd', { file_id: 99_999_999 }, stranger.token);
    expect(refused.code).toBe(404);
    expect(refused).toEqual(missing);
    const forwarded = await b.call(
      'sendMessage',
      { id: randomUUID(), toContactId: alice.userId, type: 'image', content: '', extends: { file_id: fileId } },
      stranger.token,
    );
    expect(forwarded.code).not.toBe(0);
    expect((await b.call('emojiAdd', { file_id: fileId }, bob.token)).code).toBe(0);
  });

  it('drops a withdrawn file from the bucket: no node serves it and its receiver can no longer take it on', async () => {
    const png = await picture('#66aa33');
    const sent = await uploadThrough(b, alice.token, png, {
      id: randomUUID(),
      toContactId: bob.userId,
      type: 'image',
      content: '',
    });
    const { content: src, extends: ext } = sent.data;
    expect((await get(a, src)).status).toBe(200);
    expect((await a.call('undoMessage', { id: sent.data.msg_id }, alice.token)).code).toBe(0);
    for (const node of [a, b]) {
      expect((await get(node, src)).status).toBe(404);
      expect((await get(node, ext.thumb)).status).toBe(404);
    }
    const keys = await objects();
    expect(keys).not.toContain(`uploads${src.slice('/storage'.length)}`);
    expect(keys).not.toContain(`uploads${ext.thumb.slice('/storage'.length)}`);
    expect((await b.call('emojiAdd', { file_id: ext.file_id }, bob.token)).code).toBe(404);
  });

  it('answers 503 in the language of the caller while the store is down, and works again once it is back', async () => {
    const png = await picture('#999933');
    const message = { id: randomUUID(), toContactId: bob.userId, type: 'image', content: '' };
    const before = await uploadThrough(a, alice.token, await picture('#339999'), { ...message, id: randomUUID() });
    expect(before.code).toBe(0);
    await s3.close();
    const refused = await uploadThrough(b, alice.token, png, message);
    expect(refused).toMatchObject({ code: 503, msg: 'File storage is full or unavailable; please try again later' });
    const served = await get(b, before.data.content);
    expect(served.status).toBe(503);
    expect(JSON.parse(String(served.body))).toMatchObject({ code: 503 });

    s3 = new S3rver(s3Options);
    await s3.run();
    const retried = await uploadThrough(b, alice.token, png, message);
    expect(retried.code).toBe(0);
    expect((await get(a, retried.data.content)).body.equals(png)).toBe(true);
    expect((await get(b, before.data.content)).status).toBe(200);
  });
});
