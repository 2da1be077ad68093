/**
 * What one client may take of the server: body size and nesting, uploads (streamed to disk, capped
 * in flight, images within a pixel budget), connections per address, sockets per user and slow
 * requests. Everything runs against a real listening server over 127.0.0.x: a second loopback
 * address (127.0.0.2…) is another client to the per-address cap, as a second machine would be.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { BODY_DEPTH_MAX, IMAGE_PIXELS_MAX, routes, TEXT_MESSAGE_MAX, UNITS_PER_GRAPHEME_MAX } from '@sparrow/protocol';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ResourceLimits } from '../src/config';
import { describeEachDb, signUp, startServer, TestSocket, type TestServer } from './harness';

interface Answer {
  status: number;
  json: { code: number; msg: string; data: any };
  headers: http.IncomingHttpHeaders;
}

/** Reads a response whole and hands it over as an Answer. */
function answer(res: http.IncomingMessage, resolve: (a: Answer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () =>
    resolve({
      status: res.statusCode ?? 0,
      json: JSON.parse(Buffer.concat(chunks).toString() || 'null'),
      headers: res.headers,
    }),
  );
}

/** A POST over its own connection, from `localAddress` (another loopback address is another client). */
function post(
  server: TestServer,
  path: string,
  body: string | Buffer,
  headers: Record<string, string>,
  localAddress = '127.0.0.1',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.url}${path}`,
      { method: 'POST', localAddress, agent: false, headers: { 'accept-language': 'en', ...headers } },
      (res) => answer(res, resolve),
    );
    req.on('error', reject);
    req.end(body);
  });
}

const json = { 'content-type': 'application/json' };
const elapsed = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const result = await run();
  return [result, performance.now() - start];
};

const MB = 1024 * 1024;
const BOUNDARY = 'sparrowResources';
const partHead = (name: string, type: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`;
const multipartType = `multipart/form-data; boundary=${BOUNDARY}`;

/**
 * Uploads a PDF of `size` bytes, written in 64 KB chunks of one buffer so that the client holds no
 * copy of it (the RSS measured is the server's). Its first bytes are unique, so each is stored.
 */
function streamUpload(server: TestServer, token: string, size: number, localAddress: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const head = Buffer.from(partHead('big.pdf', 'application/pdf'));
    const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    const first = Buffer.from(`%PDF-1.4\n%${randomUUID()}\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const req = http.request(
      `${server.url}${routes.uploadFile.path}`,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: {
          'content-type': multipartType,
          'content-length': String(head.length + first.length + size + tail.length),
          authorization: token,
          'accept-language': 'en',
        },
      },
      (res) => answer(res, resolve),
    );
    req.on('error', reject);
    req.write(head);
    req.write(first);
    let left = size;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

/**
 * A request that sends its headers and then a byte every `everyMs`, never finishing its body.
 * Resolves with how long the server kept it open (or null when it was refused at once). A close
 * within `refusedWithinMs` counts as refused: the 503 is written best effort, and the reset for the
 * bytes already sent can overtake it, while a connection that was taken is held until the timeout.
 */
function slowBody(
  server: TestServer,
  localAddress: string,
  everyMs: number,
  refusedWithinMs = 0,
): Promise<number | null> {
  return new Promise((resolve) => {
    const port = Number(new URL(server.url).port);
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    const start = performance.now();
    let timer: NodeJS.Timeout | undefined;
    let answered = false;
    socket.on('connect', () => {
      socket.write(
        `POST ${routes.getSystemInfo.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"a":"`,
      );
      timer = setInterval(() => socket.write('x'), everyMs);
    });
    socket.on('data', (d) => {
      if (String(d).startsWith('HTTP/1.1 503')) answered = true;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      const held = performance.now() - start;
      resolve(answered || held < refusedWithinMs ? null : held);
    });
  });
}

/** A PNG whose header says `width`×`height`, with almost no pixel data: read, never decodable. */
function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A socket from `localAddress` bound to a user: resolves with it once the bind is answered, or with
 * null when the connection was refused or closed first.
 */
function floodSocket(
  server: TestServer,
  localAddress: string,
  userId: number,
  token: string,
): Promise<WebSocket | null> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/wss`, { localAddress });
    ws.on('error', () => undefined);
    ws.on('close', () => resolve(null));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string };
      if (frame.type === 'init') ws.send(JSON.stringify({ type: 'bindUid', user_id: userId, token }));
      if (frame.type === 'pong') resolve(ws);
    });
  });
}

const p99 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.ceil(ms.length * 0.99) - 1] ?? 0;

/** A server whose caps apply to loopback too: only proxies are exempt, and here none is trusted. */
const capped = (resources: Partial<ResourceLimits>) => ({
  env: { trustProxy: false, resources: { ...startDefaults(), ...resources } },
});
const startDefaults = (): ResourceLimits => ({
  uploadsPerUser: 10,
  uploadsInFlight: 32,
  connectionsPerAddress: 256,
  socketsPerUser: 50,
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 10_000,
  idleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
});

// Bodies are refused before any database is asked: SQLite only.
describe('request bodies [sqlite]', () => {
  let server: TestServer;
  let alice: Awaited<ReturnType<typeof signUp>>;
  let bob: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    server = await startServer('sqlite');
    alice = await signUp(server, 'alice_bodies');
    bob = await signUp(server, 'bob_bodies');
    await server.call('friendAdd', { user_id: bob.userId }, { token: alice.token });
    await server.call('friendAdd', { user_id: alice.userId }, { token: bob.token });
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses a 1 MB nested body at once, 30 at a time, while another caller is served', async () => {
    const nested = `${'['.repeat(MB / 2)}${']'.repeat(MB / 2)}`;
    const [answers, ms] = await elapsed(() =>
      Promise.all(Array.from({ length: 30 }, () => post(server, routes.getSystemInfo.path, nested, json, '127.0.0.2'))),
    );
    for (const a of answers) {
      expect(a.status).toBe(413);
      expect(a.json).toMatchObject({ code: 400, msg: 'The request is too large' });
    }
    // Measured at 1.3 s of event loop for one such body before bodies had limits.
    expect(ms).toBeLessThan(1_500);
    const [info, infoMs] = await elapsed(() => post(server, routes.getSystemInfo.path, '{}', json));
    expect(info.json.code).toBe(0);
    expect(infoMs).toBeLessThan(200);
  });

  it('refuses a body nested deeper than any schema by a scan before it is parsed', async () => {
    const deep = `{"a":${'['.repeat(BODY_DEPTH_MAX)}${']'.repeat(BODY_DEPTH_MAX)}}`;
    const a = await post(server, routes.getSystemInfo.path, deep, json);
    // Small but too deep: an invalid body like any other (HTTP 200, code 400), not a large one.
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ code: 400, msg: 'The request is nested too deeply' });
    // Just under the size limit, all brackets: the scan stops at the ninth.
    const wide = '['.repeat(routes.getSystemInfo.bodyLimit - 10);
    const [b, ms] = await elapsed(() => post(server, routes.getSystemInfo.path, wide, json));
    expect(b.json.code).toBe(400);
    expect(ms).toBeLessThan(100);
    // Brackets inside strings are text, and the deepest body a schema takes (sendMessage's extends) passes.
    const ok = await server.call(
      'sendMessage',
      {
        id: 'resources-extends-1',
        toContactId: bob.userId,
        type: 'text',
        content: '[[[[[[[[[[[[[[',
        extends: { a: { b: { c: [1] } } },
      },
      { token: alice.token },
    );
    expect(ok.code).toBe(0);
  });

  it('answers a body over its route’s limit 413 before parsing it, chunked or not', async () => {
    // Not JSON at all: a parse would answer 400 with HTTP 200.
    const junk = 'x'.repeat(routes.login.bodyLimit + 1);
    const sized = await post(server, routes.login.path, junk, json);
    expect(sized.status).toBe(413);
    expect(sized.json).toMatchObject({ code: 400, data: { fields: ['body'] } });
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${server.url}${routes.login.path}`,
        { method: 'POST', agent: false, headers: { ...json, 'transfer-encoding': 'chunked' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('x'.repeat(8 * 1024));
      req.end();
    });
    expect(chunked).toBe(413);
    const form = await post(server, routes.login.path, `account=${junk}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(413);
  });

  it('takes sendMessage’s longest text in the costliest encoding a client may send: a form of percent-encoded marks', async () => {
    // A letter and 15 combining marks of three UTF-8 bytes each: one character of 16 units, each
    // unit nine bytes once percent-encoded.
    const grapheme = `a${'\u20d0'.repeat(UNITS_PER_GRAPHEME_MAX - 1)}`;
    const content = grapheme.repeat(TEXT_MESSAGE_MAX);
    const body = qs.stringify({ id: 'resources-longest-1', toContactId: bob.userId, type: 'text', content });
    expect(body.length).toBeLessThan(routes.sendMessage.bodyLimit);
    expect(body.length).toBeGreaterThan(routes.login.bodyLimit);
    const a = await post(server, routes.sendMessage.path, body, {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: alice.token,
    });
    expect(a.json.code).toBe(0);
  });
});

describeEachDb('uploads', (target) => {
  let server: TestServer;
  let alice: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    server = await startServer(target, capped({ uploadsPerUser: 12 }));
    alice = await signUp(server, 'alice_uploads');
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers a multipart body cut inside the file as UploadMalformed, not 500', async () => {
    // A whole HTTP body (its length as announced) that ends inside the file: no closing boundary.
    const payload = `${partHead('cut.png', 'image/png')}\u0089PNG${'x'.repeat(10_000)}`;
    for (const name of ['uploadFile', 'uploadAvatar', 'uploadEmoji'] as const) {
      const res = await post(server, routes[name].path, payload, {
        'content-type': multipartType,
        authorization: alice.token,
      });
      expect(res.status, name).toBe(200);
      expect(res.json, name).toMatchObject({
        code: 400,
        msg: 'The upload is malformed; choose the file again',
        data: { fields: ['file'] },
      });
    }
  });

  it('stores identical bytes uploaded at once: every upload succeeds with the one file', async () => {
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(256 * 1024)]);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        server.upload('uploadFile', { name: 'same.pdf', bytes }, { token: alice.token, lang: 'en' }),
      ),
    );
    for (const a of answers) expect(a.json).toMatchObject({ code: 0 });
    expect(new Set(answers.map((a) => a.json.data.file_id)).size).toBe(1);
    const got = await server.get(answers[0]!.json.data.src);
    expect(got.body.equals(bytes)).toBe(true);
  });

  it('refuses an image over the pixel budget from its header, before decoding it', async () => {
    const side = Math.ceil(Math.sqrt(IMAGE_PIXELS_MAX)) + 1;
    const png = pngHeader(side, side);
    for (const name of ['uploadFile', 'uploadAvatar', 'uploadEmoji'] as const) {
      const [res, ms] = await elapsed(() =>
        server.upload(name, { name: 'huge.png', bytes: png, type: 'image/png' }, { token: alice.token, lang: 'en' }),
      );
      expect(res.json, name).toMatchObject({
        code: 401,
        msg: `The image is too large (at most ${IMAGE_PIXELS_MAX / 1_000_000} megapixels)`,
      });
      expect(ms, name).toBeLessThan(500);
    }
  });
});

// Connections, sockets and uploads in flight are counted in memory, whatever the database.
describe('caps per address, per user and per upload [sqlite]', () => {
  let server: TestServer;
  let alice: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    server = await startServer(
      'sqlite',
      capped({
        connectionsPerAddress: 8,
        socketsPerUser: 3,
        uploadsPerUser: 2,
        requestTimeoutMs: 1_500,
        headersTimeoutMs: 1_000,
      }),
    );
    alice = await signUp(server, 'alice_caps');
  });
  afterAll(async () => {
    await server.close();
  });

  it('caps the connections one address holds, and serves other addresses meanwhile', async () => {
    const port = Number(new URL(server.url).port);
    const open = (localAddress: string) =>
      new Promise<net.Socket>((resolve) => {
        const s = net.connect({ port, host: '127.0.0.1', localAddress }, () => resolve(s));
        s.on('error', () => undefined);
      });
    const held = await Promise.all(Array.from({ length: 8 }, () => open('127.0.0.5')));
    const over = await open('127.0.0.5');
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      over.on('data', (d) => (text += String(d)));
      over.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1.1 503/);
    const other = await post(server, routes.getSystemInfo.path, '{}', json, '127.0.0.6');
    expect(other.json.code).toBe(0);
    for (const s of held) s.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const again = await post(server, routes.getSystemInfo.path, '{}', json, '127.0.0.5');
    expect(again.json.code).toBe(0);
  });

  it('closes a request whose body arrives too slowly once HTTP_REQUEST_TIMEOUT_MS has passed', async () => {
    const open = await slowBody(server, '127.0.0.7', 200);
    expect(open).not.toBeNull();
    // Node looks for late requests every second.
    expect(open!).toBeGreaterThan(1_400);
    expect(open!).toBeLessThan(3_500);
  });

  it('keeps a user within SOCKETS_PER_USER bound sockets by closing the oldest', async () => {
    const sockets: TestSocket[] = [];
    for (let i = 0; i < 4; i++) sockets.push(await TestSocket.bound(server, alice.userId, alice.token));
    expect(await sockets[0]!.waitClosed()).toBe(4005);
    for (const s of sockets.slice(1)) await s.roundTrip();
    expect(server.ctx.realtime.hub.userConnections(alice.userId)).toHaveLength(3);
    for (const s of sockets) s.close();
  });

  it('refuses an upload past UPLOADS_PER_USER as busy, with a time to retry after, before reading it', async () => {
    const port = Number(new URL(server.url).port);
    // Two uploads that send their first bytes and then wait: each holds its place.
    const holding = Array.from({ length: 2 }, () => {
      const s = net.connect({ port, host: '127.0.0.1', localAddress: '127.0.0.8' });
      s.on('error', () => undefined);
      s.write(
        `POST ${routes.uploadFile.path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${alice.token}\r\n` +
          `Content-Type: ${multipartType}\r\nContent-Length: 100000\r\n\r\n${partHead('a.txt', 'text/plain')}hello`,
      );
      return s;
    });
    await new Promise((r) => setTimeout(r, 200));
    const busy = await server.upload(
      'uploadFile',
      { name: 'b.txt', bytes: Buffer.from('hi') },
      { token: alice.token, lang: 'en' },
    );
    expect(busy.status).toBe(429);
    expect(busy.json).toMatchObject({ code: 429, msg: 'The server is busy with other uploads; try again in 5 s' });
    expect(busy.headers['retry-after']).toBe('5');
    for (const s of holding) s.destroy();
    await new Promise((r) => setTimeout(r, 200));
    const ok = await server.upload('uploadFile', { name: 'b.txt', bytes: Buffer.from('hi') }, { token: alice.token });
    expect(ok.json.code).toBe(0);
  });
});

/**
 * One client at once: slow bodies from one address, twelve parallel 16 MB uploads, and a flood of
 * sockets bound to one user; another client's getSystemInfo is served throughout (every call
 * answered, none waiting for the load to end) and the process's memory does not grow with what is
 * uploaded. On both databases: uploads store rows. How quick the other client stays is a figure of
 * the machine as much as of the server: printed here, not bounded by this suite, which shares its
 * cores with the browser suite (bench/capacity.mjs bounds calls' p99 under load, on a quiet machine).
 */
const UPLOADS = 12;
const UPLOAD_MB = 16;
/** RSS growth allowed, MB: before uploads were streamed, 12 × 40 MB took 651 → 1,320 MB. */
const RSS_GROWTH_MAX_MB = 160;
/**
 * The longest one call of the other client may wait, ms: a client starved by the load would wait
 * for it to end (7 s and more); a busy machine's scheduling alone has taken 1.9 s.
 */
const SERVED_WITHIN_MS = 5_000;
/** How long the load lasts, and how long the server holds a request whose body never ends. */
const LOAD_MS = 7_000;
const REQUEST_TIMEOUT_MS = 20_000;

describeEachDb('one client’s load leaves another client served', (target) => {
  let server: TestServer;
  let mallory: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    server = await startServer(
      target,
      capped({
        connectionsPerAddress: 64,
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
        headersTimeoutMs: 3_000,
        uploadsPerUser: 10,
      }),
    );
    mallory = await signUp(server, 'mallory_load');
    // The other client calls every 10 ms for 7 s: on a quick run more than anyCall's 600 a minute
    // from its one address. Its latency is under test here, not the rate limit.
    await server.ctx.config.set('rateLimits.anyCall.perMinute', '100000');
  });
  afterAll(async () => {
    await server.close();
  });

  it(`serves another client's getSystemInfo throughout, with RSS growth under ${RSS_GROWTH_MAX_MB} MB`, async () => {
    // Warm: the first upload loads file-type; the first call compiles its path.
    await streamUpload(server, mallory.token, 1024, '127.0.0.4');
    await post(server, routes.getSystemInfo.path, '{}', json);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);

    // The other client: one call at a time, over a kept-alive connection, for as long as the load lasts.
    const latencies: number[] = [];
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const call = () =>
      new Promise<number>((resolve, reject) => {
        const start = performance.now();
        const req = http.request(
          `${server.url}${routes.getSystemInfo.path}`,
          { method: 'POST', agent, headers: json },
          (res) => {
            res.resume();
            res.on('end', () =>
              res.statusCode === 200 ? resolve(performance.now() - start) : reject(new Error(String(res.statusCode))),
            );
          },
        );
        req.on('error', reject);
        req.end('{}');
      });
    // Its connection is open before the load starts, as a client already using the server has.
    await call();
    // Taken ones are held until the request timeout; refused ones close at once (under 2 s on the busiest machine).
    const slow = Array.from({ length: 150 }, () => slowBody(server, '127.0.0.2', 500, 2_000));
    const uploads = Array.from({ length: UPLOADS }, () =>
      streamUpload(server, mallory.token, UPLOAD_MB * MB, '127.0.0.4'),
    );
    const flood = Array.from({ length: 120 }, () => floodSocket(server, '127.0.0.3', mallory.userId, mallory.token));

    const began = performance.now();
    const deadline = began + LOAD_MS;
    let slowestAt = 0;
    while (performance.now() < deadline) {
      const at = performance.now() - began;
      latencies.push(await call());
      if (latencies.at(-1)! >= Math.max(...latencies)) slowestAt = at;
      await new Promise((r) => setTimeout(r, 10));
    }
    agent.destroy();

    const uploaded = await Promise.all(uploads);
    const sockets = (await Promise.all(flood)).filter((s): s is WebSocket => s !== null);
    const slowOpen = await Promise.all(slow);
    clearInterval(sampler);
    const growthMb = (rssPeak - rssBefore) / MB;
    const stored = uploaded.filter((u) => u.json.code === 0).length;
    const busy = uploaded.filter((u) => u.json.code === 429).length;
    const openSockets = sockets.filter((s) => s.readyState === WebSocket.OPEN).length;
    const figures = {
      target,
      calls: latencies.length,
      p99: Math.round(p99(latencies)),
      max: Math.round(Math.max(...latencies)),
      slowestAtMs: Math.round(slowestAt),
      rssBeforeMb: Math.round(rssBefore / MB),
      rssPeakMb: Math.round(rssPeak / MB),
      stored,
      busy,
      slowRefused: slowOpen.filter((o) => o === null).length,
      socketsOpen: openSockets,
    };
    console.log('resources:', JSON.stringify(figures));
    for (const s of sockets) s.terminate();

    // Every call was answered 200 (call() rejects otherwise), and none waited for the load to end.
    expect(latencies.length).toBeGreaterThan(LOAD_MS / SERVED_WITHIN_MS);
    expect(Math.max(...latencies)).toBeLessThan(SERVED_WITHIN_MS);
    expect(growthMb).toBeLessThan(RSS_GROWTH_MAX_MB);
    // Ten places per user: the other two were told to retry.
    expect(stored).toBe(10);
    expect(busy).toBe(2);
    // 64 connections from 127.0.0.2: the rest were refused at once, and those taken were cut at the request timeout.
    expect(slowOpen.filter((o) => o === null).length).toBeGreaterThanOrEqual(150 - 64);
    for (const o of slowOpen) if (o !== null) expect(o).toBeLessThan(REQUEST_TIMEOUT_MS + 3_000);
    expect(openSockets).toBeLessThanOrEqual(50);
  }, 60_000);
});
