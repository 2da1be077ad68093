import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  hidden,
  launchBrowser,
  newPerson,
  type Person,
  ServerProcess,
  shot,
  toast,
  visible,
  WAIT,
} from './harness';
import { pdf, png, webmWithDuration } from './media-files';

/**
 * Every kind of message between two people in two browsers with fake camera and microphone:
 * a picture, a file, a 3 s voice clip and a 5 s video, each opened or played on the other side;
 * a 61 s video refused; a received sticker added to my own and sent back; a place found by
 * search (against a place service this test serves) and a contact card.
 */

let server: ServerProcess;
let browser: Browser;
let places: http.Server;

let alice: Person;
let bob: Person;
let carol: { id: number; name: string };

async function openChat(p: Person, withId: number): Promise<void> {
  await p.page.goto(`${server.url}/#/pages/message/chat?id=${withId}`);
  await visible(p.page.getByRole('textbox', { name: '输入消息' }));
}

/** Shows the input bar's "+" panel (opening it, or back from my stickers) and presses one of its tiles. */
async function plus(page: Page, tile: string): Promise<void> {
  const grid = page.getByRole('group', { name: '更多功能', exact: true });
  if (!(await grid.isVisible())) {
    const back = page.getByRole('button', { name: '返回更多功能', exact: true });
    if (await back.isVisible()) await back.click();
    else await page.getByRole('button', { name: '更多功能', exact: true }).click();
  }
  await grid.getByRole('button', { name: tile, exact: true }).click();
}

/** Picks files through the "+" panel tile that opens the file chooser. */
async function pick(page: Page, tile: string, files: Array<{ name: string; mimeType: string; buffer: Buffer }>) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), plus(page, tile)]);
  await chooser.setFiles(files);
}

/** A picture of the page for the record, and the accessibility audit of what it shows. */
async function check(page: Page, name: string): Promise<void> {
  // Toasts fade out; the picture and the audit are of the page itself.
  await page.locator('.adm-toast-mask').waitFor({ state: 'hidden', ...WAIT });
  await shot(page, name);
  await expectAccessible(page);
}

/** A few seconds of WebM recorded in the page from a canvas, as the test's raw material. */
async function recordWebm(page: Page, ms: number): Promise<Buffer> {
  const bytes = await page.evaluate(async (duration) => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 120;
    const ctx = canvas.getContext('2d')!;
    let frame = 0;
    const draw = setInterval(() => {
      ctx.fillStyle = `hsl(${(frame++ * 20) % 360} 70% 50%)`;
      ctx.fillRect(0, 0, 160, 120);
    }, 40);
    const stream = canvas.captureStream(25);
    const recorder = new MediaRecorder(stream, { mimeType: 'video/webm;codecs=vp8' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    const stopped = new Promise((r) => (recorder.onstop = r));
    recorder.start();
    await new Promise((r) => setTimeout(r, duration));
    recorder.stop();
    await stopped;
    clearInterval(draw);
    return Array.from(new Uint8Array(await new Blob(chunks).arrayBuffer()));
  }, ms);
  return Buffer.from(bytes);
}

/** A Nominatim-compatible place search, reachable only from this machine. */
function startPlaces(): Promise<http.Server> {
  const known = [
    {
      place_id: 11,
      name: '景山公园',
      display_name: '景山公园, 景山西街44号, 西城区, 北京市',
      lat: '39.9254',
      lon: '116.3967',
    },
    {
      place_id: 12,
      name: '北海公园',
      display_name: '北海公园, 文津街1号, 西城区, 北京市',
      lat: '39.9254',
      lon: '116.3893',
    },
  ];
  const srv = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://places.test');
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/reverse') {
      res.end(
        JSON.stringify({
          place_id: 99,
          lat: url.searchParams.get('lat'),
          lon: url.searchParams.get('lon'),
          name: '天安门',
          display_name: '天安门, 东城区, 北京市',
        }),
      );
      return;
    }
    const q = url.searchParams.get('q') ?? '';
    const skip = new Set((url.searchParams.get('exclude_place_ids') ?? '').split(','));
    res.end(JSON.stringify(known.filter((p) => p.display_name.includes(q) && !skip.has(String(p.place_id)))));
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve(srv)));
}

beforeAll(async () => {
  [server, browser, places] = await Promise.all([ServerProcess.start(), launchBrowser(), startPlaces()]);
  const placesUrl = `http://127.0.0.1:${(places.address() as AddressInfo).port}/search`;
  // runMode 1: everyone is a contact, so no friend requests first.
  await server.admin('config', 'set', 'sysInfo.runMode', '1');
  await server.admin('config', 'set', 'map.searchUrl', placesUrl);
  // A map service that cannot be reached: the picker must work without tiles.
  await server.admin('config', 'set', 'map.tileUrl', 'http://127.0.0.1:9/{z}/{x}/{y}.png');
  await new Promise((r) => setTimeout(r, 1200));
  const c = await server.register('mcarol1', '陈静');
  carol = { id: c.id, name: '陈静' };
  [alice, bob] = await Promise.all([
    newPerson(server, browser, 'malice1', '王小明'),
    newPerson(server, browser, 'mbobby1', '李华'),
  ]);
  await Promise.all([openChat(alice, bob.id), openChat(bob, alice.id)]);
  // Three admin commands and two sign-ins: more than the default hook time on a cold machine.
}, 240_000);

afterAll(async () => {
  for (const p of [alice, bob]) await p?.context.close();
  await browser?.close();
  await server?.dispose();
  await new Promise((r) => places?.close(r));
});

describe('media messages between two people', () => {
  // A test that fails midway (a sheet or the camera left open) would fail the ones after it: both
  // chats are opened afresh.
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') await Promise.all([openChat(alice, bob.id), openChat(bob, alice.id)]);
  });

  it('a picture: sent from the album, opened full size on the other side', async () => {
    await pick(alice.page, '相册', [
      { name: 'lake.png', mimeType: 'image/png', buffer: png(640, 420, [40, 120, 200]) },
    ]);
    const thumb = bob.page.getByRole('button', { name: '查看图片' }).last();
    await visible(thumb);
    await thumb.click();
    const viewer = bob.page.getByRole('dialog', { name: '图片预览' });
    await visible(viewer);
    const full = viewer.getByRole('img', { name: '原图' });
    await expect.poll(() => full.evaluate((img: HTMLImageElement) => img.naturalWidth), WAIT).toBe(640);
    await check(bob.page, 'media-01-image-viewer');
    await bob.page.keyboard.press('Escape');
    await expect.poll(() => viewer.count(), WAIT).toBe(0);
  });

  it('a file: name and size on the other side, downloaded under its name', async () => {
    await pick(alice.page, '文件', [{ name: '季度报告.pdf', mimeType: 'application/pdf', buffer: pdf(3000) }]);
    const link = bob.page.getByRole('link', { name: /^下载 季度报告\.pdf，2\.9 KB$/ });
    await visible(link);
    const [download] = await Promise.all([bob.page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('季度报告.pdf');
    const path = await download.path();
    expect(path).toBeTruthy();
    await check(bob.page, 'media-02-file');

    // File management: the file is among those Bob received, not those he sent.
    await bob.page.goto(`${server.url}/#/pages/mine/files`);
    await bob.page.getByRole('radio', { name: '我收到的' }).check();
    await visible(bob.page.getByText('季度报告.pdf'));
    await bob.page.getByRole('radio', { name: '我发送的' }).check();
    await hidden(bob.page.getByText('季度报告.pdf'));
    await openChat(bob, alice.id);
  });

  it('a 3 s voice clip: held to talk, played on the other side', async () => {
    const a = alice.page;
    await a.getByRole('button', { name: '切换到按住说话' }).click();
    const talk = a.getByRole('button', { name: '按住 说话' });
    const box = (await talk.boundingBox())!;
    await a.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await a.mouse.down();
    await visible(a.getByText('手指上滑，取消发送'));
    // Held for 3 s from when the microphone records (opening it may take a while on a busy machine);
    // letting go takes a moment more, and the clip's length is rounded to the second.
    await visible(a.locator('.talk-panel[data-phase="recording"]'));
    await a.waitForTimeout(2800);
    await a.mouse.up();

    const clip = bob.page.getByRole('button', { name: /^播放语音，3 秒$/ });
    await visible(clip);
    await clip.click();
    await expect.poll(() => bob.page.locator('.voice[aria-pressed="true"]').count(), WAIT).toBe(1);
    await shot(bob.page, 'media-03-voice-playing');
    // It stops by itself at the end of the clip, not because playing failed.
    await expect.poll(() => bob.page.locator('.voice[aria-pressed="true"]').count(), WAIT).toBe(0);
    await expect(bob.page.getByText('无法播放').count()).resolves.toBe(0);
  });

  it('a voice tap under a second is refused as too short, and nothing is sent', async () => {
    const a = alice.page;
    const before = await bob.page.locator('.voice').count();
    const talk = a.getByRole('button', { name: '按住 说话' });
    const box = (await talk.boundingBox())!;
    await a.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await a.mouse.down();
    await a.waitForTimeout(300);
    await a.mouse.up();
    await visible(a.getByText('说话时间太短'));
    await a.waitForTimeout(1500);
    await expect(bob.page.locator('.voice').count()).resolves.toBe(before);
    await a.getByRole('button', { name: '切换到键盘' }).click();
  });

  it('a 5 s video from the camera: poster on the other side, plays on the video page', async () => {
    const a = alice.page;
    await plus(a, '拍摄');
    const camera = a.getByRole('dialog', { name: '拍摄' });
    await visible(camera);
    // Held down, the shutter records until it is let go.
    const shutter = camera.getByRole('button', { name: '拍照' });
    await expect.poll(() => shutter.isEnabled(), WAIT).toBe(true);
    const box = (await shutter.boundingBox())!;
    await a.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await a.mouse.down();
    await visible(camera.getByText('松开结束录制'));
    await a.waitForTimeout(5200);
    await a.mouse.up();
    await camera.getByRole('button', { name: '发送', exact: true }).click();

    const video = bob.page.getByRole('button', { name: /^播放视频，时长 0:0[4-6]$/ });
    await visible(video);
    // The poster, a frame the sender's browser drew, shows on the receiver's side.
    const poster = video.locator('img');
    await expect.poll(() => poster.evaluate((img: HTMLImageElement) => img.naturalWidth), WAIT).toBeGreaterThan(0);
    await check(bob.page, 'media-04-video-bubble');
    await video.click();
    await bob.page.waitForURL(/pages\/message\/video/, WAIT);
    const player = bob.page.locator('video.video-player');
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), WAIT).toBeGreaterThan(0);
    await shot(bob.page, 'media-05-video-page');
    await bob.page.goBack();
    await visible(bob.page.getByRole('textbox', { name: '输入消息' }));
  });

  it('a tap on the camera’s shutter takes a photo, sent as a picture', async () => {
    const a = alice.page;
    const before = await bob.page.getByRole('button', { name: '查看图片' }).count();
    await plus(a, '拍摄');
    const camera = a.getByRole('dialog', { name: '拍摄' });
    await visible(camera.getByText('轻触拍照，按住摄像，最长 60 秒'));
    const shutter = camera.getByRole('button', { name: '拍照' });
    await expect.poll(() => shutter.isEnabled(), WAIT).toBe(true);
    await shutter.click();
    await visible(camera.getByRole('img', { name: '拍摄的照片' }));
    await check(a, 'media-camera-photo');
    await camera.getByRole('button', { name: '发送', exact: true }).click();
    await expect.poll(() => bob.page.getByRole('button', { name: '查看图片' }).count(), WAIT).toBe(before + 1);
  });

  it('a 61 s video from the album is refused before any byte is sent', async () => {
    const a = alice.page;
    const long = webmWithDuration(await recordWebm(a, 1200), 61_000);
    const videosBefore = await bob.page.getByRole('button', { name: /^播放视频/ }).count();
    let uploads = 0;
    a.on('request', (r) => {
      if (r.url().includes('/common/upload/uploadFile')) uploads++;
    });
    await pick(a, '相册', [{ name: 'long.webm', mimeType: 'video/webm', buffer: long }]);
    await visible(toast(a, '视频时长不能超过 60 秒'));
    await a.waitForTimeout(1000);
    expect(uploads).toBe(0);
    await expect(bob.page.getByRole('button', { name: /^播放视频/ }).count()).resolves.toBe(videosBefore);
  });

  it('a place found by search, opened on a map on the other side', async () => {
    const a = alice.page;
    // This browser has no geolocation: the picker says so (docs/product.md §8) and search still works.
    await a.evaluate(() => Object.defineProperty(navigator, 'geolocation', { value: undefined, configurable: true }));
    await plus(a, '位置');
    const picker = a.getByRole('dialog', { name: '选择位置' });
    await visible(picker);
    await visible(toast(a, '设备不支持定位'));
    await picker.getByRole('searchbox').fill('景山');
    const row = picker.locator('.picker-row', { hasText: '景山公园' });
    await visible(row);
    await row.click();
    await expect(row.getAttribute('aria-pressed')).resolves.toBe('true');
    await check(a, 'media-08-location-picker');
    await picker.getByRole('button', { name: '发送', exact: true }).click();

    const card = bob.page.getByRole('button', { name: '查看位置：景山公园' });
    await visible(card);
    await card.click();
    const map = bob.page.getByRole('dialog', { name: '位置：景山公园' });
    await visible(map);
    await visible(map.getByText('景山西街44号, 西城区, 北京市'));
    await check(bob.page, 'media-09-location-viewer');
    await bob.page.keyboard.press('Escape');
  });

  it('a contact card: chosen and confirmed, opening the person on the other side', async () => {
    const a = alice.page;
    await plus(a, '个人名片');
    const sheet = a.getByRole('dialog', { name: '选择名片' });
    await visible(sheet);
    await sheet.getByRole('button', { name: carol.name }).click();
    await a.getByRole('dialog').getByRole('button', { name: '发送', exact: true }).click();

    const card = bob.page.getByRole('link', { name: `查看 ${carol.name} 的名片` });
    await visible(card);
    await check(bob.page, 'media-10-contact-card');
    await card.click();
    await bob.page.waitForURL(new RegExp(`pages/contacts/detail\\?id=${carol.id}`), WAIT);
    await visible(bob.page.getByText(carol.name).first());
  });

  it('a sticker of mine, added from the album, sent from my stickers page', async () => {
    const b = bob.page;
    await openChat(bob, alice.id);
    await plus(b, '我的表情');
    await b.getByRole('group', { name: '我的表情' }).getByRole('button', { name: '整理' }).click();
    await b.waitForURL(/pages\/message\/emoji/, WAIT);
    const [chooser] = await Promise.all([
      b.waitForEvent('filechooser'),
      b.getByRole('button', { name: '从相册添加表情' }).click(),
    ]);
    await chooser.setFiles([{ name: 'wink.png', mimeType: 'image/png', buffer: png(120, 120, [250, 180, 20]) }]);
    const mine = b.getByRole('button', { name: /^发送表情/ });
    await visible(mine);
    await check(b, 'media-06-my-stickers');
    // Opened from the chat, a tap sends the sticker there and goes back to it.
    await mine.first().click();
    await visible(b.getByRole('textbox', { name: '输入消息' }));
    await visible(alice.page.getByRole('button', { name: '查看表情' }).last());
  });

  it('a sticker I received goes into my stickers, and I send it back', async () => {
    const a = alice.page;
    const b = bob.page;
    const received = a.getByRole('button', { name: '查看表情' }).last();
    await received.click();
    const sheet = a.getByRole('dialog', { name: '表情', exact: true });
    await visible(sheet);
    const [added] = await Promise.all([
      a.waitForResponse((r) => r.url().includes('/enterprise/emoji/add')),
      sheet.getByRole('button', { name: '添加到表情' }).click(),
    ]);
    expect(((await added.json()) as { code: number }).code).toBe(0);
    await visible(toast(a, '已添加'));

    await plus(a, '我的表情');
    const panel = a.getByRole('group', { name: '我的表情' });
    const sticker = panel.getByRole('button', { name: /^发送表情/ });
    await visible(sticker);
    await shot(a, 'media-07-sticker-panel');
    await sticker.first().click();
    await expect.poll(() => b.getByRole('button', { name: '查看表情' }).count(), WAIT).toBe(2);
  });
});
