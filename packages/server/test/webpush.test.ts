import { createECDH, createPublicKey, randomBytes, randomUUID, verify, type ECDH } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decrypt } from 'http_ece';
import type { WebPushPayload } from '@sparrow/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithRedis } from './cluster';
import { loadConfig } from '../src/config';
import type { HostResolver } from '../src/lib/outbound';
import type { PushLimits } from '../src/modules/push';
import { describeEachDb, logIn, signUp, startServer, TestSocket, type DbTarget, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>>;

/** An address on the public internet, for names a test's resolver answers (nothing is sent there). */
const PUBLIC = '93.184.215.14';

/** A resolver answering from `entries`, which a test may change as it goes (DNS rebinding). */
function resolverOf(entries: Record<string, string[]>): HostResolver {
  return async (host) => {
    const found = entries[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const b64url = (buf: Buffer) => buf.toString('base64url');

/** A browser's side of a subscription: its P-256 key pair and auth secret (RFC 8291). */
interface Browser {
  name: string;
  ecdh: ECDH;
  auth: Buffer;
}

interface Received {
  path: string;
  payload: WebPushPayload;
  ttl: string | undefined;
  topic: string | undefined;
}

/**
 * A push service on loopback, as a browser vendor runs one: it checks the VAPID JWT (ES256 by the
 * key the `Authorization: vapid t=…, k=…` header names, which must be the server's, for this
 * origin, not expired), then decrypts the aes128gcm body with the subscribing browser's private key.
 * A browser listed in `gone` is answered the status given there (404 or 410, as for a
 * subscription the browser dropped or the push service no longer knows; 500 as for a push service
 * failing). A browser in `held` is answered only at `release()`, and never if the request is cut.
 */
class PushEndpoint {
  readonly received: Received[] = [];
  readonly refused: string[] = [];
  readonly gone = new Map<string, number>();
  /** Every request's path, as it arrives. */
  readonly requests: string[] = [];
  /** Paths of held requests whose sender closed the connection before an answer. */
  readonly cut: string[] = [];
  readonly held = new Set<string>();
  private releases: Array<() => void> = [];
  private readonly browsers = new Map<string, Browser>();
  private readonly server = http.createServer((req, res) => void this.handle(req, res));
  private waiters: Array<() => void> = [];
  serverKey = '';
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Answers every held request (and those held later, until `held` is changed). */
  release(): void {
    this.held.clear();
    for (const r of this.releases.splice(0)) r();
  }

  browser(name: string): {
    browser: Browser;
    subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  } {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const browser = { name, ecdh, auth: randomBytes(16) };
    this.browsers.set(name, browser);
    return {
      browser,
      subscription: {
        endpoint: `${this.url}/push/${name}`,
        keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(browser.auth) },
      },
    };
  }

  /** The next push to `name` satisfying `pred`, counting only those after the first `from`. */
  async next(name: string, pred: (p: WebPushPayload) => boolean = () => true, from = 0, ms = 5000): Promise<Received> {
    const deadline = Date.now() + ms;
    for (;;) {
      const hit = this.received.slice(from).find((r) => r.path === `/push/${name}` && pred(r.payload));
      if (hit) return hit;
      if (this.refused.length) throw new Error(`push refused: ${this.refused.join('; ')}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no push to ${name}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  to(name: string): WebPushPayload[] {
    return this.received.filter((r) => r.path === `/push/${name}`).map((r) => r.payload);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = req.url ?? '';
    this.requests.push(path);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (this.held.has(path.replace('/push/', ''))) {
      const answered = await new Promise<boolean>((resolve) => {
        this.releases.push(() => resolve(true));
        res.on('close', () => resolve(false));
      });
      if (!answered) {
        this.cut.push(path);
        for (const w of this.waiters.splice(0)) w();
        return;
      }
    }
    try {
      this.checkVapid(String(req.headers.authorization ?? ''));
      if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
      const browser = this.browsers.get(path.replace('/push/', ''));
      if (!browser) throw new Error(`unknown subscription ${path}`);
      const gone = this.gone.get(browser.name);
      if (gone) {
        this.received.push({ path, payload: { title: '', body: '', chat: '' }, ttl: undefined, topic: undefined });
        res.writeHead(gone).end();
        return;
      }
      const plain = decrypt(Buffer.concat(chunks), {
        version: 'aes128gcm',
        privateKey: browser.ecdh,
        authSecret: browser.auth,
      });
      this.received.push({
        path,
        payload: JSON.parse(plain.toString('utf8')) as WebPushPayload,
        ttl: req.headers.ttl as string | undefined,
        topic: req.headers.topic as string | undefined,
      });
      res.writeHead(201).end();
    } catch (err) {
      this.refused.push(`${path}: ${(err as Error).message}`);
      res.writeHead(403).end();
    } finally {
      for (const w of this.waiters.splice(0)) w();
    }
  }

  /** RFC 8292: `vapid t=<JWT>, k=<the application server's public key>`. */
  private checkVapid(header: string): void {
    const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header);
    if (!m) throw new Error(`no VAPID authorization: ${header}`);
    const [, jwt, k] = m;
    if (k !== this.serverKey) throw new Error('signed by a key that is not the server’s');
    const raw = Buffer.from(k!, 'base64url');
    const key = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33, 65)) },
      format: 'jwk',
    });
    const [head, body, sig] = jwt!.split('.');
    const ok = verify(
      'sha256',
      Buffer.from(`${head}.${body}`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(sig!, 'base64url'),
    );
    if (!ok) throw new Error('bad VAPID signature');
    const header_ = JSON.parse(Buffer.from(head!, 'base64url').toString());
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    if (header_.alg !== 'ES256') throw new Error(`alg ${header_.alg}`);
    if (claims.aud !== this.url) throw new Error(`aud ${claims.aud}`);
    const now = Date.now() / 1000;
    if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error(`exp ${claims.exp}`);
    if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error(`sub ${claims.sub}`);
  }
}

describeEachDb('web push', (target: DbTarget) => {
  let server: TestServer;
  const endpoint = new PushEndpoint();
  let n = 0;
  const sockets: TestSocket[] = [];
  const fresh = (name: string) => signUp(server, `${name}${++n}w${Math.floor(Math.random() * 1e6)}`, 'secret123', name);

  beforeAll(async () => {
    await endpoint.start();
    // The push service here is on loopback, which only this test setting lets the server reach.
    server = await startServer(target, { env: { pushAllowHttp: true, pushAllowInternal: true } });
    await server.ctx.config.set('chatInfo.sendInterval', '0');
    // Made while the server started, before any request.
    endpoint.serverKey = (await server.ctx.repos.push.vapid())?.public_key ?? '';
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server.close();
    await endpoint.close();
  });

  async function befriend(a: User, b: User) {
    expect((await server.call('friendAdd', { user_id: b.userId }, { token: a.token })).code).toBe(0);
    const got = await server.call('friendIndex', { is_mine: 0 }, { token: b.token });
    const req = got.data.find((r: any) => r.create_user_info.user_id === a.userId);
    const res = await server.call('friendUpdate', { friend_id: req.friend_id, status: 1 }, { token: b.token });
    expect(res.code).toBe(0);
  }
  async function send(from: User, to: number | string, content: string) {
    const res = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: to, is_group: typeof to === 'string' ? 1 : 0, type: 'text', content },
      { token: from.token },
    );
    expect(res.code, res.msg).toBe(0);
  }
  /** A user whose browser is subscribed, and who has no socket. */
  async function subscribed(name: string) {
    const user = await fresh(name);
    const { subscription } = endpoint.browser(`${name}${user.userId}`);
    const res = await server.call('pushSubscribe', subscription, { token: user.token });
    expect(res.code, res.msg).toBe(0);
    return { user, at: `${name}${user.userId}`, subscription };
  }

  it('answers the VAPID public key made at first start, the same every time', async () => {
    const u = await fresh('keys');
    const a = await server.call('pushKey', {}, { token: u.token });
    expect(a.code).toBe(0);
    expect(Buffer.from(a.data.publicKey, 'base64url')).toHaveLength(65);
    expect(a.data.preview).toBe(1);
    const b = await server.call('pushKey', {}, { token: (await fresh('keys')).token });
    expect(b.data.publicKey).toBe(a.data.publicKey);
    const stored = await server.ctx.repos.push.vapid();
    expect(stored?.public_key).toBe(a.data.publicKey);
    expect(endpoint.serverKey).toBe(a.data.publicKey);
  });

  it('pushes a private message with its sender and text to a user with no socket, signed and encrypted', async () => {
    const alice = await fresh('Alice');
    const bob = await subscribed('Bob');
    await befriend(alice, bob.user);
    await send(alice, bob.user.userId, 'are you there?');
    const got = await endpoint.next(bob.at);
    expect(got.payload).toEqual({ title: 'Alice', body: 'are you there?', chat: String(alice.userId) });
    expect(Number(got.ttl)).toBeGreaterThan(0);
    expect(got.topic).toBe(`c${alice.userId}`);
  });

  it('pushes nothing while a socket is bound, and again once it closes', async () => {
    const alice = await fresh('Alice');
    const bob = await subscribed('Bob');
    await befriend(alice, bob.user);
    const socket = await TestSocket.bound(server, bob.user.userId, bob.user.token);
    await send(alice, bob.user.userId, 'while bound');
    await socket.waitFor((f) => f.type === 'simple' && f.data.content === 'while bound');
    socket.close();
    const deadline = Date.now() + 3000;
    while ((await server.ctx.realtime.reachable([bob.user.userId])).size > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await send(alice, bob.user.userId, 'after closing');
    await endpoint.next(bob.at, (p) => p.body === 'after closing');
    expect(endpoint.to(bob.at).map((p) => p.body)).toEqual(['after closing']);
  });

  it('pushes only "a new message", in their language, to a user who turned the preview off', async () => {
    const alice = await fresh('Alice');
    const bob = await subscribed('Bob');
    await befriend(alice, bob.user);
    // The language is the one Bob's client speaks last.
    const set = await server.call('pushSetting', { preview: 0 }, { token: bob.user.token, lang: 'zh-Hans' });
    expect(set.data).toEqual({ preview: 0 });
    expect((await server.call('pushKey', {}, { token: bob.user.token, lang: 'zh-Hans' })).data.preview).toBe(0);
    await send(alice, bob.user.userId, 'a secret plan');
    const got = await endpoint.next(bob.at);
    expect(got.payload).toEqual({ title: 'Sparrow', body: '你收到一条新消息', chat: String(alice.userId) });
    expect(JSON.stringify(endpoint.to(bob.at))).not.toContain('secret');
  });

  it('pushes nothing for a muted chat', async () => {
    const alice = await fresh('Alice');
    const bob = await subscribed('Bob');
    await befriend(alice, bob.user);
    const mute = (on: 0 | 1) =>
      server.call('isNotice', { id: alice.userId, is_group: 0, is_notice: on }, { token: bob.user.token });
    expect((await mute(0)).code).toBe(0);
    await send(alice, bob.user.userId, 'muted one');
    expect((await mute(1)).code).toBe(0);
    await send(alice, bob.user.userId, 'heard one');
    await endpoint.next(bob.at, (p) => p.body === 'heard one');
    expect(endpoint.to(bob.at).map((p) => p.body)).toEqual(['heard one']);
  });

  it('pushes a group message with the group, the sender and the text, but not to the sender', async () => {
    const alice = await subscribed('Alice');
    const bob = await subscribed('Bob');
    const carol = await subscribed('Carol');
    await befriend(alice.user, bob.user);
    await befriend(alice.user, carol.user);
    const group = await server.call(
      'groupAdd',
      { user_ids: [bob.user.userId, carol.user.userId], name: 'Hikers' },
      { token: alice.user.token },
    );
    expect(group.code, group.msg).toBe(0);
    const gid = group.data.id as string;
    await send(alice.user, gid, 'meet at nine');
    for (const who of [bob, carol]) {
      const got = await endpoint.next(who.at, (p) => p.body.endsWith('meet at nine'));
      expect(got.payload).toEqual({ title: 'Hikers', body: 'Alice: meet at nine', chat: gid });
    }
    await send(bob.user, gid, 'see you');
    await endpoint.next(alice.at, (p) => p.body === 'Bob: see you');
    expect(
      endpoint
        .to(alice.at)
        .filter((p) => p.chat === gid)
        .map((p) => p.body),
    ).toEqual(['Bob: see you']);
  });

  it('rings a call as a push to a callee with no socket', async () => {
    await server.ctx.config.set('chatInfo.webrtc', '1');
    const alice = await fresh('Alice');
    const bob = await subscribed('Bob');
    await befriend(alice, bob.user);
    await server.call('pushKey', {}, { token: bob.user.token, lang: 'zh-Hans' });
    const res = await server.call(
      'sendToMsg',
      { id: randomUUID(), toContactId: bob.user.userId, type: 1, event: 'calling' },
      { token: alice.token },
    );
    expect(res.code, res.msg).toBe(0);
    const got = await endpoint.next(bob.at, (p) => p.call === 1);
    expect(got.payload).toEqual({ title: 'Alice', body: 'Alice 邀请你视频通话', chat: String(alice.userId), call: 1 });
  });

  for (const status of [404, 410] as const)
    it(`drops a subscription the push service answers ${status} to, and keeps the user's others`, async () => {
      const alice = await fresh('Alice');
      const bob = await subscribed('Bob');
      const other = endpoint.browser(`${bob.at}laptop`);
      expect((await server.call('pushSubscribe', other.subscription, { token: bob.user.token })).code).toBe(0);
      await befriend(alice, bob.user);
      endpoint.gone.set(bob.at, status);
      await send(alice, bob.user.userId, 'anyone?');
      await endpoint.next(bob.at);
      await endpoint.next(`${bob.at}laptop`, (p) => p.body === 'anyone?');
      const deadline = Date.now() + 3000;
      while ((await server.ctx.repos.push.subscriptionCount(bob.user.userId)) > 1 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(await server.ctx.repos.push.subscriptionCount(bob.user.userId)).toBe(1);
      // The next message goes to the browser still subscribed, and the dropped one is not tried again.
      const tried = endpoint.received.filter((r) => r.path === `/push/${bob.at}`).length;
      await send(alice, bob.user.userId, 'still there?');
      await endpoint.next(`${bob.at}laptop`, (p) => p.body === 'still there?');
      expect(endpoint.received.filter((r) => r.path === `/push/${bob.at}`)).toHaveLength(tried);
    });

  it('pushes nothing to a browser whose session has ended, only to the one signed in since', async () => {
    const alice = await fresh('Alice');
    const bob = await subscribed('Bob');
    await befriend(alice, bob.user);
    expect((await server.call('logout', {}, { token: bob.user.token })).code).toBe(0);
    const again = await logIn(server, bob.user.account, bob.user.password);
    const { subscription } = endpoint.browser(`${bob.at}phone`);
    expect((await server.call('pushSubscribe', subscription, { token: again })).code).toBe(0);
    await send(alice, bob.user.userId, 'after signing out there');
    await endpoint.next(`${bob.at}phone`, (p) => p.body === 'after signing out there');
    expect(endpoint.to(bob.at)).toEqual([]);
  });

  it('lets a user unsubscribe only their own browser', async () => {
    const alice = await fresh('Alice');
    const bob = await subscribed('Bob');
    const eve = await fresh('Eve');
    await befriend(alice, bob.user);
    const theirs = await server.call('pushUnsubscribe', { endpoint: bob.subscription.endpoint }, { token: eve.token });
    expect(theirs.code).toBe(0);
    expect(await server.ctx.repos.push.subscriptionCount(bob.user.userId)).toBe(1);
    const mine = await server.call(
      'pushUnsubscribe',
      { endpoint: bob.subscription.endpoint },
      { token: bob.user.token },
    );
    expect(mine.code).toBe(0);
    expect(await server.ctx.repos.push.subscriptionCount(bob.user.userId)).toBe(0);
  });

  it('keeps at most ten subscriptions per user, the newest', async () => {
    const u = await fresh('many');
    for (let i = 0; i < 12; i++) {
      const { subscription } = endpoint.browser(`many${u.userId}x${i}`);
      expect((await server.call('pushSubscribe', subscription, { token: u.token })).code).toBe(0);
      server.clock.advance(1);
    }
    const rows = await server.ctx.repos.push.subscriptionsOf([u.userId], server.clock.now());
    expect(rows.map((r) => r.endpoint.split('x').at(-1)).sort((a, b) => Number(a) - Number(b))).toEqual([
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
      '11',
    ]);
  });
});

describe('web push subscriptions', () => {
  it('refuses a plain-http push service unless the operator allows it', async () => {
    const server = await startServer('sqlite', { env: { resolveHost: resolverOf({ 'push.example.com': [PUBLIC] }) } });
    try {
      const u = await signUp(server, 'plainhttp');
      const https = {
        endpoint: 'https://push.example.com/send/abc',
        keys: { p256dh: b64url(createECDH('prime256v1').generateKeys()), auth: b64url(randomBytes(16)) },
      };
      expect((await server.call('pushSubscribe', https, { token: u.token })).code).toBe(0);
      const plain = await server.call(
        'pushSubscribe',
        { ...https, endpoint: 'http://10.0.0.1/internal' },
        { token: u.token },
      );
      expect(plain.code).toBe(400);
      expect(plain.data.fields).toEqual(['endpoint']);
    } finally {
      await server.close();
    }
  });

  it('takes only the hosts PUSH_ALLOWED_HOSTS lists when it is set', async () => {
    const { pushAllowedHosts } = loadConfig({ PUSH_ALLOWED_HOSTS: 'fcm.googleapis.com, .push.services.mozilla.com.' });
    expect(pushAllowedHosts).toEqual(['fcm.googleapis.com', '.push.services.mozilla.com']);
    const resolveHost = resolverOf({
      'fcm.googleapis.com': [PUBLIC],
      'updates.push.services.mozilla.com': [PUBLIC],
      'push.example.com': [PUBLIC],
    });
    const server = await startServer('sqlite', { env: { pushAllowedHosts, resolveHost } });
    try {
      const u = await signUp(server, 'allowlisted');
      const keys = { p256dh: b64url(createECDH('prime256v1').generateKeys()), auth: b64url(randomBytes(16)) };
      const code = async (endpoint: string) =>
        (await server.call('pushSubscribe', { endpoint, keys }, { token: u.token })).code;
      expect(await code('https://fcm.googleapis.com/fcm/send/abc')).toBe(0);
      expect(await code('https://updates.push.services.mozilla.com/wpush/v2/abc')).toBe(0);
      expect(await code('https://push.example.com/send/abc')).toBe(400);
    } finally {
      await server.close();
    }
  });
});

/** Makes `a` and `b` friends on `server`. */
async function befriendOn(server: TestServer, a: User, b: User): Promise<void> {
  expect((await server.call('friendAdd', { user_id: b.userId }, { token: a.token })).code).toBe(0);
  const got = await server.call('friendIndex', { is_mine: 0 }, { token: b.token });
  const req = got.data.find((r: any) => r.create_user_info.user_id === a.userId);
  expect((await server.call('friendUpdate', { friend_id: req.friend_id, status: 1 }, { token: b.token })).code).toBe(0);
}

async function sendOn(server: TestServer, from: User, to: User, content: string): Promise<void> {
  const res = await server.call(
    'sendMessage',
    { id: randomUUID(), toContactId: to.userId, is_group: 0, type: 'text', content },
    { token: from.token },
  );
  expect(res.code, res.msg).toBe(0);
}

/** Waits until `check` holds, up to `ms`. */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A user's subscriptions as stored: endpoint → pushes failed in a row. */
async function failuresOf(server: TestServer, user: User): Promise<Map<string, number>> {
  const rows = await server.ctx.repos.push.subscriptionsOf([user.userId], server.clock.now());
  return new Map(rows.map((r) => [r.endpoint, r.failures]));
}

describeEachDb('web push to internal addresses', (target: DbTarget) => {
  let server: TestServer;
  const endpoint = new PushEndpoint();
  const dns: Record<string, string[]> = {
    'push.example.org': [PUBLIC],
    'loopback.example.org': ['127.0.0.1'],
    'mixed.example.org': [PUBLIC, '192.168.1.1'],
  };
  let n = 0;
  const fresh = (name: string) => signUp(server, `${name}${++n}i${Math.floor(Math.random() * 1e6)}`, 'secret123', name);

  beforeAll(async () => {
    await endpoint.start();
    // Plain http so that a rebound name could reach the receiver on loopback if the guard let it.
    server = await startServer(target, { env: { pushAllowHttp: true, resolveHost: resolverOf(dns) } });
    await server.ctx.config.set('chatInfo.sendInterval', '0');
    endpoint.serverKey = (await server.ctx.repos.push.vapid())?.public_key ?? '';
  });
  afterAll(async () => {
    await server.close();
    await endpoint.close();
  });

  it('refuses push services at internal addresses, however spelled, in the caller’s language, and stores none', async () => {
    const u = await fresh('ssrf');
    const keys = endpoint.browser(`ssrf${u.userId}`).subscription.keys;
    const internal = [
      'https://127.0.0.1/push/x',
      'https://[::1]/push/x',
      'https://2130706433/push/x',
      'https://0x7f000001/push/x',
      'https://127.1/push/x',
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.1/push/x',
      'https://192.168.1.1/push/x',
      'https://100.64.0.1/push/x',
      'https://[fd00::1]/push/x',
      'https://[::ffff:127.0.0.1]/push/x',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://user:pass@push.example.org/push/x',
      'https://localhost/push/x',
      'https://loopback.example.org/push/x',
      'https://mixed.example.org/push/x',
      'https://unknown.example.org/push/x',
    ];
    const answers: Record<string, unknown> = {};
    for (const url of internal) {
      const res = await server.call('pushSubscribe', { endpoint: url, keys }, { token: u.token, lang: 'zh-Hans' });
      answers[url] = { code: res.code, msg: res.msg, fields: res.data?.fields };
    }
    // The refusal names the field in the caller's words.
    const refused = { code: 400, msg: '推送地址格式不正确', fields: ['endpoint'] };
    expect(answers).toEqual(Object.fromEntries(internal.map((url) => [url, refused])));
    expect(await server.ctx.repos.push.subscriptionCount(u.userId)).toBe(0);
    const en = await server.call('pushSubscribe', { endpoint: internal[0], keys }, { token: u.token, lang: 'en' });
    expect([en.code, en.msg]).toEqual([400, 'Push address is not valid']);
    // A push service at a public address is taken.
    const ok = await server.call(
      'pushSubscribe',
      { endpoint: 'https://push.example.org/send/x', keys },
      { token: u.token },
    );
    expect(ok.code, ok.msg).toBe(0);
  });

  it('does not contact a push service whose name resolves to an internal address by the time it sends', async () => {
    const alice = await fresh('Alice');
    const bob = await fresh('Bob');
    await befriendOn(server, alice, bob);
    const at = `rebind${bob.userId}`;
    const { subscription } = endpoint.browser(at);
    const rebound = { ...subscription, endpoint: subscription.endpoint.replace('127.0.0.1', 'rebind.example.org') };
    dns['rebind.example.org'] = [PUBLIC];
    expect((await server.call('pushSubscribe', rebound, { token: bob.token })).code).toBe(0);
    dns['rebind.example.org'] = ['127.0.0.1'];
    const refusedBefore = server.services.push.counts().refused;
    await sendOn(server, alice, bob, 'rebound?');
    await until('the push failed', async () => (await failuresOf(server, bob)).get(rebound.endpoint) === 1);
    expect(server.services.push.counts().refused).toBe(refusedBefore + 1);
    expect(endpoint.requests).not.toContain(`/push/${at}`);
  });
});

describeEachDb('web push limits', (target: DbTarget) => {
  const endpoint = new PushEndpoint();
  let n = 0;

  beforeAll(() => endpoint.start());
  afterAll(() => endpoint.close());

  /** A server reaching the receiver on loopback with these limits; `fn` gets it and a subscribed recipient. */
  async function withServer(
    limits: Partial<PushLimits>,
    fn: (s: {
      server: TestServer;
      alice: User;
      bob: User;
      subscribe: (name: string) => Promise<{ at: string; url: string }>;
    }) => Promise<void>,
  ): Promise<void> {
    const server = await startServer(target, {
      env: { pushAllowHttp: true, pushAllowInternal: true, pushLimits: limits },
    });
    try {
      await server.ctx.config.set('chatInfo.sendInterval', '0');
      endpoint.serverKey = (await server.ctx.repos.push.vapid())?.public_key ?? '';
      const tag = `${++n}l${Math.floor(Math.random() * 1e6)}`;
      const alice = await signUp(server, `alice${tag}`, 'secret123', 'Alice');
      const bob = await signUp(server, `bob${tag}`, 'secret123', 'Bob');
      await befriendOn(server, alice, bob);
      const subscribe = async (name: string) => {
        const { subscription } = endpoint.browser(`${name}${tag}`);
        const res = await server.call('pushSubscribe', subscription, { token: bob.token });
        expect(res.code, res.msg).toBe(0);
        return { at: `${name}${tag}`, url: subscription.endpoint };
      };
      await fn({ server, alice, bob, subscribe });
    } finally {
      endpoint.release();
      await server.close();
    }
  }

  it('sends at most the cap at once and drops the oldest waiting push when the queue is full', async () => {
    await withServer({ concurrency: 1, queueMax: 2 }, async ({ server, alice, bob, subscribe }) => {
      const { at } = await subscribe('queued');
      const counts = () => server.services.push.counts();
      endpoint.held.add(at);
      await sendOn(server, alice, bob, 'm1');
      await until('m1 in flight', () => counts().running === 1 && endpoint.requests.includes(`/push/${at}`));
      await sendOn(server, alice, bob, 'm2');
      await until('m2 waiting', () => counts().waiting === 1);
      await sendOn(server, alice, bob, 'm3');
      await until('m3 waiting', () => counts().waiting === 2);
      await sendOn(server, alice, bob, 'm4');
      await until('m2 dropped', () => counts().queueDropped === 1);
      expect(counts()).toMatchObject({ running: 1, waiting: 2 });
      endpoint.release();
      await endpoint.next(at, (p) => p.body === 'm4');
      expect(endpoint.to(at).map((p) => p.body)).toEqual(['m1', 'm3', 'm4']);
      await until('m4 answered', () => counts().sent === 3);
      const metrics = await server.ctx.metrics.text();
      expect(metrics).toContain('sparrow_web_push_total{outcome="dropped"} 1');
      expect(metrics).toContain('sparrow_web_push_total{outcome="sent"} 3');
    });
  });

  it('cuts a push service that does not answer within the timeout and counts the failure', async () => {
    await withServer({ timeoutMs: 300 }, async ({ server, alice, bob, subscribe }) => {
      const { at, url } = await subscribe('slow');
      endpoint.held.add(at);
      const started = Date.now();
      await sendOn(server, alice, bob, 'anyone there?');
      await until('the push failed', async () => (await failuresOf(server, bob)).get(url) === 1);
      expect(Date.now() - started).toBeLessThan(2000);
      await until('the receiver saw the request cut', () => endpoint.cut.includes(`/push/${at}`));
      await until('the slot freed', () => server.services.push.counts().running === 0);
      expect(server.services.push.counts()).toMatchObject({ failed: 1, sent: 0 });
    });
  });

  it('drops a subscription that keeps failing, and keeps one whose push service recovers', async () => {
    await withServer({ failuresMax: 3, failingMs: 60_000 }, async ({ server, alice, bob, subscribe }) => {
      const dead = await subscribe('dead');
      const flaky = await subscribe('flaky');
      endpoint.gone.set(dead.at, 500);
      endpoint.gone.set(flaky.at, 503);
      const failures = () => failuresOf(server, bob);
      for (let i = 1; i <= 3; i++) {
        await sendOn(server, alice, bob, `try ${i}`);
        await until(`failure ${i}`, async () => {
          const f = await failures();
          return f.get(dead.url) === i && f.get(flaky.url) === i;
        });
      }
      // Three in a row, but within a minute: an outage that short loses nothing.
      server.clock.advance(60_000);
      endpoint.gone.delete(flaky.at);
      await sendOn(server, alice, bob, 'try 4');
      await until('the dead one dropped', async () => !(await failures()).has(dead.url));
      await endpoint.next(flaky.at, (p) => p.body === 'try 4');
      await until('the flaky one recovered', async () => (await failures()).get(flaky.url) === 0);
      expect(server.services.push.counts()).toMatchObject({ dropped: 1 });
      // The dropped subscription is tried no more.
      const tried = endpoint.requests.filter((p) => p === `/push/${dead.at}`).length;
      await sendOn(server, alice, bob, 'try 5');
      await endpoint.next(flaky.at, (p) => p.body === 'try 5');
      expect(endpoint.requests.filter((p) => p === `/push/${dead.at}`)).toHaveLength(tried);
    });
  });
});

describeWithRedis('web push across nodes', (redisUrl) => {
  it('counts a socket bound on another node, and signs with the one key pair every node reads', async () => {
    const endpoint = new PushEndpoint();
    await endpoint.start();
    const shared = { pushAllowHttp: true, pushAllowInternal: true, redisUrl, redisPrefix: `push-${randomUUID()}:` };
    const a = await startServer('sqlite', { env: shared });
    const b = await startServer('sqlite', { env: { ...shared, dataDir: a.dataDir } });
    try {
      const [keyA, keyB] = await Promise.all([a.services.push.keys(), b.services.push.keys()]);
      expect(keyB.publicKey).toBe(keyA.publicKey);
      endpoint.serverKey = keyA.publicKey;
      const alice = await signUp(a, 'alicenodes');
      const bob = await signUp(a, 'bobnodes');
      await a.call('friendAdd', { user_id: bob.userId }, { token: alice.token });
      await a.call('friendAdd', { user_id: alice.userId }, { token: bob.token });
      const { subscription } = endpoint.browser('bobnodes');
      expect((await a.call('pushSubscribe', subscription, { token: bob.token })).code).toBe(0);

      const socket = await TestSocket.bound(b, bob.userId, bob.token);
      const say = (content: string) =>
        a.call(
          'sendMessage',
          { id: randomUUID(), toContactId: bob.userId, type: 'text', content },
          { token: alice.token },
        );
      expect((await say('while bound on the other node')).code).toBe(0);
      await socket.waitFor((f) => f.type === 'simple' && f.data.content === 'while bound on the other node');
      socket.close();
      const deadline = Date.now() + 3000;
      while ((await a.ctx.realtime.reachable([bob.userId])).size > 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect((await say('after closing')).code).toBe(0);
      await endpoint.next('bobnodes', (p) => p.body === 'after closing');
      expect(endpoint.to('bobnodes').map((p) => p.body)).toEqual(['after closing']);
    } finally {
      await b.close();
      await a.close();
      await endpoint.close();
    }
  });
});
