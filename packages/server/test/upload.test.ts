import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb, signUp, startServer, type TestServer } from './harness';

/** A solid-colour image (small when compressed). */
const solid = (format: 'png' | 'jpeg', width: number, height: number, r = 200) =>
  sharp({ create: { width, height, channels: 3, background: { r, g: 40, b: 90 } } })
    .toFormat(format)
    .toBuffer();

/** A noisy image (compresses badly: big on purpose). */
const noisy = (edge: number) =>
  sharp(randomBytes(edge * edge * 3), { raw: { width: edge, height: edge, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();

describeEachDb('uploadAvatar and /storage', (target) => {
  let server: TestServer;
  let token: string;
  let userId: number;
  beforeAll(async () => {
    server = await startServer(target);
    ({ token, userId } = await signUp(server, 'avatar_user'));
  });
  afterAll(async () => {
    await server.close();
  });

  const avatar = async () => (await server.call('checkuser', {}, { token })).data.avatar as string;
  const storedFiles = () => {
    const root = path.join(server.dataDir, 'uploads');
    if (!fs.existsSync(root)) return [];
    return fs.readdirSync(root).flatMap((dir) => fs.readdirSync(path.join(root, dir)).map((f) => `${dir}/${f}`));
  };

  it('turns a PNG into a 256×256 webp served from /storage with nosniff, and sets my avatar', async () => {
    const png = await solid('png', 400, 300);
    const res = await server.upload('uploadAvatar', { name: 'me.png', bytes: png, type: 'image/png' }, { token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ code: 0, msg: 'Saved' });
    expect(res.json.data).toMatch(/^\/storage\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/);
    expect(await avatar()).toBe(res.json.data);

    const file = await server.get(res.json.data);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/webp');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-disposition')).toBe('inline');
    const meta = await sharp(file.body).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });

    const bob = await signUp(server, 'avatar_viewer');
    const seen = await server.call('getUserInfo', { user_id: userId }, { token: bob.token });
    expect(seen.data.avatar).toBe(res.json.data);
  });

  it('takes a JPEG too', async () => {
    const jpeg = await solid('jpeg', 640, 480, 20);
    const res = await server.upload('uploadAvatar', { name: 'photo.jpg', bytes: jpeg, type: 'image/jpeg' }, { token });
    expect(res.json.code).toBe(0);
    const file = await server.get(res.json.data);
    expect(await sharp(file.body).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect(await avatar()).toBe(res.json.data);
  });

  it('stores the same image once', async () => {
    const png = await solid('png', 320, 320, 77);
    const first = await server.upload('uploadAvatar', { name: 'a.png', bytes: png }, { token });
    const before = storedFiles().length;
    const second = await server.upload('uploadAvatar', { name: 'b.png', bytes: png }, { token });
    expect(second.json.code).toBe(0);
    expect(second.json.data).toBe(first.json.data);
    expect(storedFiles()).toHaveLength(before);
    const hash = first.json.data.slice(first.json.data.lastIndexOf('/') + 1, -'.webp'.length);
    const rows = await server.ctx.db.selectFrom('files').selectAll().where('hash', '=', hash).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ext: 'webp', mime: 'image/webp', cate: 2, width: 256, height: 256 });
  });

  it('judges the type by the bytes: text, SVG or a broken image named .png is refused with 401', async () => {
    const before = await avatar();
    const cases = [
      { name: 'note.png', bytes: Buffer.from('just some text, not an image\n'), type: 'image/png' },
      {
        name: 'logo.png',
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        type: 'image/svg+xml',
      },
      { name: 'page.png', bytes: Buffer.from('<!doctype html><html><body>hi</body></html>'), type: 'image/png' },
      { name: 'cut.png', bytes: (await solid('png', 64, 64)).subarray(0, 60), type: 'image/png' },
    ];
    for (const [i, file] of cases.entries()) {
      const lang = i === 0 ? null : 'en';
      const res = await server.upload('uploadAvatar', file, { token, lang });
      expect(res.status, file.name).toBe(200);
      expect(res.json.code, file.name).toBe(401);
      expect(res.json.msg, file.name).toBe(
        lang === null ? '不允许上传该类型的文件' : 'Files of this type cannot be uploaded',
      );
    }
    expect(await avatar()).toBe(before);
  });

  it('refuses a file over fileUpload.size with 401, and takes one over 1 MB under the default', async () => {
    const big = await noisy(700);
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const ok = await server.upload('uploadAvatar', { name: 'big.png', bytes: big }, { token });
    expect(ok.json.code).toBe(0);

    await server.ctx.config.set('fileUpload.size', '0.5');
    try {
      const before = await avatar();
      const res = await server.upload('uploadAvatar', { name: 'big.png', bytes: big }, { token, lang: 'fr' });
      expect(res.json).toMatchObject({ code: 401, msg: 'Le fichier est trop volumineux (0.5 Mo au plus)' });
      expect(await avatar()).toBe(before);
      const small = await server.upload(
        'uploadAvatar',
        { name: 's.png', bytes: await solid('png', 50, 50, 3) },
        { token },
      );
      expect(small.json.code).toBe(0);
    } finally {
      await server.ctx.config.set('fileUpload.size', '50');
    }
  });

  it('asks for a file when none is sent', async () => {
    const none = await server.upload('uploadAvatar', null, { token });
    expect(none.json).toMatchObject({ code: 400, msg: 'Choose a file', data: { fields: ['file'] } });
    const json = await server.call('uploadAvatar', { file: 'data:image/png;base64,AAAA' }, { token });
    expect(json).toMatchObject({ code: 400, data: { fields: ['file'] } });
  });

  it('needs a session', async () => {
    const png = await solid('png', 10, 10);
    const res = await server.upload('uploadAvatar', { name: 'x.png', bytes: png });
    expect(res.json.code).toBe(-1);
    const revoked = await server.upload(
      'uploadAvatar',
      { name: 'x.png', bytes: png },
      { token: 'bearer no-such-session-token-000' },
    );
    expect(revoked.json.code).toBe(-1);
  });

  it('/storage serves nothing outside the store', async () => {
    for (const url of [
      '/storage/../../etc/passwd',
      '/storage/%2e%2e/%2e%2e/etc/passwd',
      '/storage/ab/not-a-hash.webp',
      `/storage/00/${'0'.repeat(64)}.webp`,
      '/storage/..%2f..%2fsparrow.db/x',
    ]) {
      const res = await server.get(url);
      expect(res.status, url).toBe(404);
      expect(res.body.toString(), url).not.toContain('root:');
    }
  });
});
