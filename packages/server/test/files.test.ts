import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDb, signUp, startServer, TestSocket, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>>;

/** A mono 8 kHz 16-bit WAV of `seconds` of silence. */
function wav(seconds: number): Buffer {
  const rate = 8000;
  const data = Buffer.alloc(rate * 2 * seconds);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** The first bytes of an MP4 (enough for its type to be recognised, not to be played). */
const mp4 = () =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypmp42'),
    Buffer.alloc(12),
    Buffer.from('free'),
    Buffer.alloc(64),
  ]);

describeEachDb('files, media messages and stickers', (target) => {
  let server: TestServer;
  let a: User, b: User, c: User;
  let png: Buffer;

  beforeAll(async () => {
    server = await startServer(target);
    await server.ctx.config.set('sysInfo.runMode', '1');
    a = await signUp(server, 'filea', 'secret123', 'FileA');
    b = await signUp(server, 'fileb', 'secret123', 'FileB');
    c = await signUp(server, 'filec', 'secret123', 'FileC');
    png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#2266aa' } })
      .png()
      .toBuffer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(async () => {
    await server.ctx.config.set('fileUpload.size', '50');
  });

  const uploadWith = (u: User, name: string, bytes: Buffer, message?: object) =>
    server.upload(
      'uploadFile',
      { name, bytes },
      { token: u.token, ...(message && { fields: { message: JSON.stringify(message) } }) },
    );

  it('stores an image once by its bytes, with a thumbnail and its size', async () => {
    const first = await uploadWith(a, 'photo.png', png);
    expect(first.json.code).toBe(0);
    expect(first.json.data).toMatchObject({
      ext: 'png',
      cate: 2,
      mime: 'image/png',
      name: 'photo.png',
      size: png.length,
    });
    const again = await uploadWith(b, 'other-name.png', png);
    expect(again.json.data.file_id).toBe(first.json.data.file_id);
    expect(again.json.data.src).toBe(first.json.data.src);
    const served = await server.get(first.json.data.src);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-disposition')).toBe('inline');
  });

  it('refuses size + 1 byte, a renamed executable, and types outside the list, with code 401', async () => {
    await server.ctx.config.set('fileUpload.size', String(png.length / 1024 / 1024));
    expect((await uploadWith(a, 'exact.png', png)).json.code).toBe(0);
    const big = await uploadWith(a, 'big.png', Buffer.concat([png, Buffer.from([0])]));
    expect(big.json.code).toBe(401);
    await server.ctx.config.set('fileUpload.size', '50');
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)]);
    const exe = await uploadWith(a, 'cute-cat.jpg', elf);
    expect(exe.json).toMatchObject({ code: 401, msg: 'Files of this type cannot be uploaded' });
    const html = Buffer.from('<html><script>alert(document.cookie)</script></html>');
    expect((await uploadWith(a, 'page.html', html)).json.code).toBe(401);
  });

  it('serves an allowed HTML file only as a download, and makes a hostile file name safe', async () => {
    const list = (server.ctx.config.get().fileUpload.fileExt as string[]).concat('html');
    await server.ctx.config.set('fileUpload.fileExt', JSON.stringify(list));
    const html = Buffer.from('<html><body><script>alert(1)</script></body></html>');
    const up = await uploadWith(a, '../../../etc/evil\u0000name.html', html);
    expect(up.json.code).toBe(0);
    expect(up.json.data.name).toBe('evil_name.html');
    expect(up.json.data.src).toMatch(/^\/storage\/[0-9a-f]{2}\/[0-9a-f]{64}\.html$/);
    const served = await server.get(`${up.json.data.src}?name=${encodeURIComponent(up.json.data.name)}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(served.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''evil_name.html`);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const files = fs.readdirSync(path.join(server.dataDir, 'uploads'), { recursive: true }) as string[];
    expect(files.some((f) => f.includes('evil') || f.includes('..'))).toBe(false);
    expect(fs.existsSync(path.join(server.dataDir, '..', 'etc'))).toBe(false);
    expect((await server.get('/storage/../sparrow.db')).status).toBe(404);
  });

  it('sends image, voice, video and file messages with what the server measured', async () => {
    const sb = await TestSocket.bound(server, b.userId, b.token);
    const image = await uploadWith(a, 'pic.png', png, {
      id: randomUUID(),
      toContactId: b.userId,
      type: 'image',
      content: '',
    });
    expect(image.json.code).toBe(0);
    expect(image.json.data).toMatchObject({ type: 'image', extends: { width: 800, height: 600 } });
    expect(image.json.data.content).toMatch(/^\/storage\//);
    expect(image.json.data.preview).toBe(image.json.data.extends.thumb);
    const thumb = await server.get(image.json.data.extends.thumb);
    expect((await sharp(thumb.body).metadata()).width).toBe(400);
    await sb.waitFor((f) => f.type === 'simple' && f.data.type === 'image');

    const voice = await uploadWith(a, 'voice.wav', wav(3), {
      id: randomUUID(),
      toContactId: b.userId,
      type: 'voice',
      content: '',
    });
    expect(voice.json.data).toMatchObject({ type: 'voice', extends: { duration: 3 } });

    const short = await uploadWith(a, 'clip.mp4', mp4(), {
      id: randomUUID(),
      toContactId: b.userId,
      type: 'video',
      content: '',
      extends: { duration: 5, width: 320, height: 240 },
    });
    expect(short.json.data).toMatchObject({ type: 'video', extends: { duration: 5, width: 320, height: 240 } });
    const long = await uploadWith(a, 'long.mp4', Buffer.concat([mp4(), Buffer.from('x')]), {
      id: randomUUID(),
      toContactId: b.userId,
      type: 'video',
      content: '',
      extends: { duration: 61 },
    });
    expect(long.json).toMatchObject({ code: 401, msg: 'Videos can be at most 60 seconds long' });

    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2000, 32), Buffer.from('%%EOF')]);
    const file = await uploadWith(a, '季度报告.pdf', pdf, {
      id: randomUUID(),
      toContactId: b.userId,
      type: 'file',
      content: '',
    });
    expect(file.json.data).toMatchObject({
      type: 'file',
      fileName: '季度报告.pdf',
      fileSize: pdf.length,
      extends: { ext: 'pdf' },
    });
    expect(file.json.data.download).toBe(`${file.json.data.content}?name=${encodeURIComponent('季度报告.pdf')}`);
    const dl = await server.get(file.json.data.download);
    expect(dl.headers.get('content-disposition')).toBe(
      `attachment; filename*=UTF-8''${encodeURIComponent('季度报告.pdf')}`,
    );

    const wrongKind = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: b.userId, type: 'image', content: '', file_id: file.json.data.extends.file_id },
      { token: a.token },
    );
    expect(wrongKind.code).toBe(401);
    const notMine = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: a.userId, type: 'file', content: '', file_id: file.json.data.extends.file_id },
      { token: c.token },
    );
    expect(notMine.code).toBe(404);
    sb.close();
  });

  it('validates location and contact-card messages', async () => {
    const send = (extra: object) =>
      server.call(
        'sendMessage',
        { id: randomUUID(), toContactId: b.userId, content: '', ...extra },
        { token: a.token },
      );
    const loc = await send({
      type: 'location',
      extends: { name: '天安门', address: '北京市东城区', latitude: 39.9087, longitude: 116.3975 },
    });
    expect(loc.data).toMatchObject({
      type: 'location',
      content: '[位置] 天安门',
      extends: { name: '天安门', latitude: 39.9087 },
    });
    expect((await send({ type: 'location', extends: { name: 'x', latitude: 91, longitude: 0 } })).code).toBe(400);
    expect((await send({ type: 'location', extends: { name: 'x', latitude: 0, longitude: 181 } })).code).toBe(400);
    expect((await send({ type: 'location', extends: { latitude: 0, longitude: 0 } })).code).toBe(400);
    const card = await send({ type: 'contact', extends: { id: c.userId } });
    expect(card.data).toMatchObject({
      type: 'contact',
      content: '[个人名片] FileC',
      extends: { id: c.userId, displayName: 'FileC' },
    });
    expect((await send({ type: 'contact', extends: { id: 999999 } })).code).toBe(404);
    const preview = (await server.call('getContacts', {}, { token: b.token, lang: 'en' })).data.find(
      (x: any) => x.id === a.userId,
    );
    expect(preview.lastContent).toBe('[Contact card] FileC');
  });

  it('keeps a sticker collection: upload, add from a received message, move, delete', async () => {
    const gif = await sharp({ create: { width: 120, height: 120, channels: 4, background: '#ff000080' } })
      .gif()
      .toBuffer();
    const up = await server.upload('uploadEmoji', { name: 'smile.gif', bytes: gif }, { token: b.token });
    expect(up.json.code).toBe(0);
    expect(up.json.data).toMatchObject({ src: expect.stringMatching(/^\/storage\//), file_id: expect.any(Number) });
    expect(
      (
        await server.upload(
          'uploadEmoji',
          { name: 'x.png', bytes: Buffer.from('not an image at all') },
          { token: b.token },
        )
      ).json.code,
    ).toBe(401);
    await server.ctx.config.set('fileUpload.emojiSize', '0.0001');
    expect((await server.upload('uploadEmoji', { name: 'big.png', bytes: png }, { token: b.token })).json.code).toBe(
      401,
    );
    await server.ctx.config.set('fileUpload.emojiSize', '2');

    const other = await sharp({ create: { width: 90, height: 90, channels: 3, background: '#00aa00' } })
      .png()
      .toBuffer();
    const sent = await uploadWith(a, 'green.png', other, {
      id: randomUUID(),
      toContactId: b.userId,
      type: 'image',
      content: '',
    });
    const fileId = sent.json.data.extends.file_id;
    expect((await server.call('emojiAdd', { file_id: fileId }, { token: c.token })).code).toBe(404);
    const added = await server.call('emojiAdd', { file_id: fileId }, { token: b.token });
    expect(added.code).toBe(0);
    const list = (await server.call('emojiIndex', {}, { token: b.token })).data;
    expect(list.map((e: any) => e.file_id)).toEqual([fileId, up.json.data.file_id]);
    await server.call('emojiMove', { ids: [list[1].id] }, { token: b.token });
    expect((await server.call('emojiIndex', {}, { token: b.token })).data.map((e: any) => e.id)).toEqual([
      list[1].id,
      list[0].id,
    ]);
    const sticker = await server.call(
      'sendMessage',
      {
        id: randomUUID(),
        toContactId: a.userId,
        type: 'emoji',
        content: list[1].src,
        extends: { file_id: list[1].file_id },
      },
      { token: b.token },
    );
    expect(sticker.data).toMatchObject({ type: 'emoji', content: list[1].src, extends: { file_id: list[1].file_id } });
    // The receiver collects the sticker from the message, and can send it on.
    const collected = await server.call('emojiAdd', { file_id: list[1].file_id }, { token: a.token });
    expect(collected.code).toBe(0);
    const again = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: b.userId, type: 'emoji', content: '', extends: { file_id: list[1].file_id } },
      { token: a.token },
    );
    expect(again.data).toMatchObject({ type: 'emoji', content: list[1].src });
    const foreign = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: b.userId, type: 'emoji', content: '', extends: { file_id: list[1].file_id } },
      { token: c.token },
    );
    expect(foreign.code).toBe(400);
    await server.call('emojiDel', { ids: [list[0].id] }, { token: b.token });
    expect((await server.call('emojiIndex', {}, { token: b.token })).data.map((e: any) => e.id)).toEqual([list[1].id]);
    await server.call('emojiDel', { ids: [list[1].id] }, { token: c.token });
    expect((await server.call('emojiIndex', {}, { token: b.token })).data).toHaveLength(1);
  });

  it('lists sent and received files, filtered and paged', async () => {
    const d = await signUp(server, 'filed', 'secret123', 'FileD');
    const e = await signUp(server, 'filee', 'secret123', 'FileE');
    for (let i = 0; i < 5; i++) {
      const doc = Buffer.from(`report number ${i}\n`);
      await uploadWith(d, `report-${i}.txt`, doc, {
        id: randomUUID(),
        toContactId: e.userId,
        type: 'file',
        content: '',
      });
    }
    const img = await sharp({ create: { width: 10 + 1, height: 10, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    await uploadWith(d, 'tiny.png', img, { id: randomUUID(), toContactId: e.userId, type: 'image', content: '' });
    const sent = await server.call('fileList', { is_mine: 1, limit: 4 }, { token: d.token });
    expect(sent.count).toBe(6);
    expect(sent.data).toHaveLength(4);
    expect(sent.data[0]).toMatchObject({ cate: 2, ext: 'png' });
    const page2 = await server.call('fileList', { is_mine: 1, limit: 4, page: 2 }, { token: d.token });
    expect(page2.data.map((f: any) => f.name)).toEqual(['report-1.txt', 'report-0.txt']);
    const received = await server.call('fileList', { is_mine: 0, cate: 1 }, { token: e.token });
    expect(received.count).toBe(5);
    expect(received.data[0]).toMatchObject({ name: 'report-4.txt', fromUser: { id: d.userId } });
    const found = await server.call('fileList', { is_mine: 0, keywords: 'report-3' }, { token: e.token });
    expect(found.data.map((f: any) => f.name)).toEqual(['report-3.txt']);
    expect((await server.call('fileList', { is_mine: 0 }, { token: d.token })).count).toBe(0);
  });

  it('stops serving a file once the last message using it is withdrawn or deleted', async () => {
    const pic = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#abcdef' } })
      .png()
      .toBuffer();
    const one = await uploadWith(a, 'p.png', pic, {
      id: randomUUID(),
      toContactId: b.userId,
      type: 'image',
      content: '',
    });
    const two = await uploadWith(a, 'p.png', pic, {
      id: randomUUID(),
      toContactId: c.userId,
      type: 'image',
      content: '',
    });
    const src = one.json.data.content;
    expect((await server.get(src)).status).toBe(200);
    expect((await server.call('undoMessage', { id: one.json.data.msg_id }, { token: a.token })).code).toBe(0);
    expect((await server.get(src)).status).toBe(200);
    expect((await server.call('delMessage', { id: two.json.data.msg_id }, { token: a.token })).code).toBe(0);
    expect((await server.get(src)).status).toBe(404);
    expect((await server.get(one.json.data.extends.thumb)).status).toBe(404);
  });
});
