import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { routes } from '@sparrow/protocol';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { captureLog, describeEachDb, LOG_LEVEL, signUp, startServer, type LogLine, type TestServer } from './harness';

const UPLOADS = ['uploadFile', 'uploadAvatar', 'uploadEmoji', 'uploadGroupAvatar'] as const;

// A full or read-only disk is made for real: a small tmpfs mounted over the uploads folder. Mounting
// needs root, which CI has; elsewhere these cases say why they did not run.
const isRoot = process.getuid?.() === 0;
if (!isRoot && process.env.CI === 'true') throw new Error('CI=true but not root: the storage fault cases cannot mount');

describeEachDb('malformed uploads', (target) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer(target);
    ({ token } = await signUp(server, 'multipart_user'));
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers multipart without a boundary, or with a header it cannot read, as the caller’s error', async () => {
    const bodies: Array<[string, string]> = [
      ['multipart/form-data', 'hello'],
      ['multipart/form-data; charset=utf-8', '--x\r\n\r\n'],
      ['multipart/form-data; boundary=', 'x'],
    ];
    for (const name of UPLOADS)
      for (const [type, payload] of bodies) {
        const res = await server.app.inject({
          method: 'POST',
          url: routes[name].path,
          headers: { 'content-type': type, authorization: token, 'accept-language': 'en' },
          payload,
        });
        expect(res.statusCode, `${name} ${type}`).toBeLessThan(500);
        expect(res.json(), `${name} ${type}`).toMatchObject({ code: 400, data: { fields: ['file'] } });
      }
    const res = await server.app.inject({
      method: 'POST',
      url: routes.uploadFile.path,
      headers: { 'content-type': 'multipart/form-data', authorization: token, 'accept-language': 'en' },
      payload: 'hello',
    });
    expect(res.json().msg).toBe('The upload is malformed; choose the file again');
  });
});

describeEachDb('upload storage full or read-only', (target) => {
  let server: TestServer;
  let log: LogLine[];
  let alice: Awaited<ReturnType<typeof signUp>>;
  let bob: Awaited<ReturnType<typeof signUp>>;
  let uploads: string;
  const mount = (options: string) => execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', uploads]);
  const remount = (options: string) => execFileSync('mount', ['-o', `remount,${options}`, uploads]);

  beforeAll(async () => {
    if (!isRoot) return;
    server = await startServer(target, { logger: true, env: { logLevel: 'warn' } });
    log = captureLog(server.app);
    alice = await signUp(server, 'full_alice');
    bob = await signUp(server, 'full_bob');
    await server.call('friendAdd', { user_id: bob.userId }, { token: alice.token });
    await server.call('friendAdd', { user_id: alice.userId }, { token: bob.token });
    uploads = path.join(server.dataDir, 'uploads');
    fs.mkdirSync(uploads, { recursive: true });
    mount('size=64k');
  });
  const filler = () => path.join(uploads, 'filler');
  /** Fills the disk to the last byte. */
  const fill = () => {
    const fd = fs.openSync(filler(), 'w');
    const chunk = Buffer.alloc(4096);
    try {
      for (;;) fs.writeSync(fd, chunk);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    } finally {
      fs.closeSync(fd);
    }
  };
  afterAll(async () => {
    if (!isRoot) return;
    execFileSync('umount', [uploads]);
    await server.close();
  });

  const noisyPng = () =>
    sharp(randomBytes(200 * 200 * 3), { raw: { width: 200, height: 200, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
  const storageErrors = () => log.filter((l) => l.level === LOG_LEVEL.error && l.msg.includes('storage'));

  it.skipIf(!isRoot)(
    'answers 503 with a clear message when the disk is full, logs it once a minute, and serves the rest',
    async () => {
      const png = await noisyPng();
      fill();
      for (const name of ['uploadFile', 'uploadAvatar', 'uploadEmoji'] as const) {
        const res = await server.upload(
          name,
          { name: 'big.png', bytes: png, type: 'image/png' },
          { token: alice.token, lang: 'en' },
        );
        expect(res.status, name).toBe(503);
        expect(res.json, name).toMatchObject({
          code: 503,
          msg: 'File storage is full or unavailable; please try again later',
        });
      }
      expect(storageErrors()).toHaveLength(1);
      server.clock.advance(61_000);
      await server.upload('uploadFile', { name: 'big.png', bytes: png }, { token: alice.token });
      expect(storageErrors()).toHaveLength(2);
      expect(
        fs
          .readdirSync(uploads, { recursive: true, encoding: 'utf8' })
          .filter((f) => fs.statSync(path.join(uploads, f)).isFile()),
      ).toEqual(['filler']);

      const text = await server.call(
        'sendMessage',
        { id: 'full-disk-text-1', toContactId: bob.userId, content: 'still here' },
        { token: alice.token },
      );
      expect(text.code).toBe(0);
      expect((await server.call('getSystemInfo')).code).toBe(0);

      fs.rmSync(filler());
      remount('size=8m');
      const again = await server.upload(
        'uploadFile',
        { name: 'big.png', bytes: png, type: 'image/png' },
        { token: alice.token },
      );
      expect(again.json.code).toBe(0);
    },
  );

  it.skipIf(!isRoot)('answers 503 on a read-only folder, and takes uploads again once it is writable', async () => {
    remount('ro');
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#3a6' } })
      .png()
      .toBuffer();
    const res = await server.upload(
      'uploadAvatar',
      { name: 'me.png', bytes: png, type: 'image/png' },
      { token: bob.token, lang: 'zh-Hans' },
    );
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ code: 503, msg: '文件存储已满或暂时不可用，请稍后再试' });
    const carol = await signUp(server, 'full_carol');
    await server.call('friendAdd', { user_id: carol.userId }, { token: bob.token });
    await server.call('friendAdd', { user_id: bob.userId }, { token: carol.token });
    const group = await server.call('groupAdd', { user_ids: [alice.userId, carol.userId] }, { token: bob.token });
    expect(group.code).toBe(0);
    remount('rw');
    const ok = await server.upload(
      'uploadAvatar',
      { name: 'me.png', bytes: png, type: 'image/png' },
      { token: bob.token },
    );
    expect(ok.json.code).toBe(0);
  });
});
