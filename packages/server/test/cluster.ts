import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { WebSocket } from 'ws';
import { routes, type Envelope, type RouteName } from '@sparrow/protocol';
import { type OpenedDb } from '../src/db';
import { ConfigService } from '../src/modules/system/config-service';
import { ConfigRepo } from '../src/modules/system/repo';
import { checkServerFrame, createPgDatabase, type DbTarget } from './harness';

const serverMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');

/**
 * Suites that need Redis: run when REDIS_URL is set; with CI=true a missing REDIS_URL fails.
 */
export function describeWithRedis(name: string, fn: (redisUrl: string) => void): void {
  const url = process.env.REDIS_URL;
  if (url) describe(name, () => fn(url));
  else if (process.env.CI === 'true') throw new Error('CI=true but REDIS_URL is not set: the Redis suites cannot run');
  else describe.skip(`${name} (REDIS_URL is not set)`, () => undefined);
}

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** One server process of a cluster: its own port, the cluster's database and Redis. */
export class Node {
  private child: ChildProcess | undefined;
  readonly log: string[] = [];

  constructor(
    readonly port: number,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn(process.execPath, ['--import', 'tsx', serverMain], {
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1', WEB_DIST: '', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (d: Buffer) => this.log.push(String(d)));
    this.child.stderr?.on('data', (d: Buffer) => this.log.push(String(d)));
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const res = await fetch(`${this.url}/common/Pub/getSystemInfo`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        if (res.ok) return;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error(`node did not start:\n${this.log.join('')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async stop(): Promise<void> {
    await this.kill('SIGTERM');
  }

  /** Ends the process with `signal` (SIGKILL: a crash, nothing closed in order) and waits for it. */
  async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  /** Calls an endpoint on this node. */
  async call(name: RouteName, body: object, token?: string): Promise<Envelope<any>> {
    const res = await fetch(`${this.url}${routes[name].path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en', ...(token && { authorization: token }) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Envelope<any>;
  }
}

/**
 * A Redis of a suite's own, on a free port, that the suite may kill and start again: the shared one
 * serves other suites running at the same time.
 */
export class RedisServer {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.restart();
    return server;
  }

  /** Starts it (again, on the same port, empty) and waits until it answers. */
  async restart(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const child = spawn('redis-server', [...args, '--daemonize', 'no'], { stdio: 'ignore' });
    this.child = child;
    const deadline = Date.now() + 10_000;
    while (!(await this.answers())) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`redis-server did not start on ${this.port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private answers(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = net.connect(this.port, '127.0.0.1');
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.on('connect', () => socket.write('PING\r\n'));
      socket.on('data', (d) => done(String(d).startsWith('+PONG')));
      socket.on('error', () => done(false));
    });
  }

  /** Ends it with `signal` and waits until it is gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }
}

/** Whether `redis-server` can be started here; with CI=true its absence fails the run. */
export function haveRedisServer(): boolean {
  const found = (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir !== '' && fs.existsSync(path.join(dir, 'redis-server')));
  if (!found && process.env.CI === 'true') throw new Error('CI=true but redis-server is not on PATH');
  return found;
}

/** Several server processes sharing one database and one Redis (with a prefix of their own). */
export class Cluster {
  private constructor(
    readonly nodes: Node[],
    readonly dataDir: string,
    readonly databaseUrl: string | undefined,
    private readonly dropDb: (() => Promise<void>) | undefined,
  ) {}

  static async start(target: DbTarget, redisUrl: string, size: number, more: NodeJS.ProcessEnv = {}): Promise<Cluster> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-cluster-'));
    const pgDb = target === 'postgres' ? await createPgDatabase() : undefined;
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: pgDb?.url ?? '',
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `sparrow-test-${randomUUID()}:`,
      CONFIG_POLL_MS: '500',
      // Scenarios sign many people up from this one address; the limit has its own tests.
      REGISTER_PER_HOUR: '0',
      ...more,
    };
    const nodes: Node[] = [];
    for (let i = 0; i < size; i++) nodes.push(new Node(await freePort(), env));
    await nodes[0]!.start();
    await Promise.all(nodes.slice(1).map((n) => n.start()));
    return new Cluster(nodes, dataDir, pgDb?.url, pgDb?.drop);
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.stop()));
    await this.dropDb?.();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * A client as the web client behaves: it keeps messages by msg_id, binds its socket, and after
 * every (re)connect pulls what it missed with `sync`, so that nothing is lost or shown twice.
 */
export class ReliableClient {
  readonly messages = new Map<number, { msg_id: number; id: string }>();
  /** Every push received, duplicates included, to prove the store collapses them. */
  pushes = 0;
  /** The messages pushed to it or acknowledged to it as their sender, without `sync`. */
  readonly live = new Set<number>();
  /** Sockets opened: more than one means it reconnected. */
  connects = 0;
  private ws: WebSocket | undefined;
  private closed = false;
  private syncing: Promise<void> = Promise.resolve();

  /**
   * `alternates`: the nodes to take turns with when the current one cannot be reached, as a load
   * balancer would send the client elsewhere; without them it keeps trying its node until it is back.
   */
  constructor(
    public node: Node,
    readonly userId: number,
    readonly token: string,
    private readonly alternates: Node[] = [],
  ) {}

  /** Calls made again after a failure (no answer, or an error a retry may cure). */
  retries = 0;

  /** Turns to the next node after a failure to reach this one, when there is another. */
  private failOver(): void {
    const ring = [this.node, ...this.alternates.filter((n) => n !== this.node)];
    if (ring.length > 1) this.node = ring[1]!;
  }

  /**
   * How far `sync` has confirmed the history. Pushes and my own sends do not move it: a push can
   * arrive while an older one was lost, so only a sync page proves there is no gap before it.
   */
  private cursor = 0;

  private keep(m: { msg_id: number; id: string }) {
    this.messages.set(m.msg_id, { msg_id: m.msg_id, id: m.id });
  }

  /** Connects, binds, and catches up; reconnects by itself until closed. */
  async connect(): Promise<void> {
    if (this.closed) return;
    await new Promise<void>((resolve) => {
      const ws = new WebSocket(`${this.node.url.replace('http', 'ws')}/wss`);
      this.ws = ws;
      this.connects += 1;
      let opened = false;
      let settled = false;
      const done = () => {
        if (!settled) {
          settled = true;
          resolve();
        }
      };
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data));
        checkServerFrame(frame);
        if (frame.type === 'init')
          ws.send(JSON.stringify({ type: 'bindUid', user_id: this.userId, token: this.token }));
        else if (frame.type === 'pong') {
          void this.catchUp();
          done();
        } else if (frame.type === 'simple' || frame.type === 'group') {
          this.pushes += 1;
          this.live.add(frame.data.msg_id);
          this.keep(frame.data);
        }
      });
      ws.on('open', () => (opened = true));
      ws.on('error', () => undefined);
      ws.on('close', () => {
        if (!opened) this.failOver();
        done();
        if (!this.closed) setTimeout(() => void this.connect(), 50);
      });
    });
  }

  /** Pulls everything after the newest message held, page by page. */
  catchUp(): Promise<void> {
    this.syncing = this.syncing.then(async () => {
      for (;;) {
        const page = await this.node.call('sync', { after_id: this.cursor, limit: 200 }, this.token).catch(() => null);
        if (!page || page.code !== 0) return;
        for (const m of page.data) this.keep(m);
        if (page.data.length) this.cursor = page.data.at(-1).msg_id;
        if (!page.count) return;
      }
    });
    return this.syncing;
  }

  /** Drops the socket as a flaky network would. */
  drop(): void {
    this.ws?.terminate();
  }

  /** Sends with retries under the same id until the server stores it. */
  async send(to: number, content: string): Promise<number> {
    const id = randomUUID();
    for (let attempt = 0; attempt < 400; attempt++) {
      if (attempt > 0) this.retries += 1;
      const res = await this.node
        .call('sendMessage', { id, toContactId: to, type: 'text', content }, this.token)
        .catch(() => null);
      if (res?.code === 0) {
        this.live.add(res.data.msg_id);
        this.keep(res.data);
        return res.data.msg_id;
      }
      if (res === null) this.failOver();
      else if (typeof res.code === 'number' && ![429, 502, 503].includes(res.code))
        throw new Error(`send refused: ${res.code} ${res.msg}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('send never went through');
  }

  close(): void {
    this.closed = true;
    this.ws?.close();
  }
}

/** A user of a scenario, signed in. */
export interface Member {
  userId: number;
  token: string;
}

/** `n` new users who are all friends of each other, signed in on `node`. */
export async function friendsOf(node: Node, prefix: string, n: number): Promise<Member[]> {
  const users: Member[] = [];
  for (let i = 0; i < n; i++) {
    const account = `${prefix}${i}`;
    await node.call('register', { account, password: 'secret123', realname: account });
    const login = await node.call('login', { account, password: 'secret123' });
    users.push({ userId: login.data.userInfo.user_id, token: login.data.authToken });
  }
  for (const x of users)
    for (const y of users)
      if (x.userId < y.userId) {
        await node.call('friendAdd', { user_id: y.userId }, x.token);
        await node.call('friendAdd', { user_id: x.userId }, y.token);
      }
  return users;
}

/**
 * Raises the rate limits in the cluster's database so that a test sends as fast as it can; the
 * nodes see it at their next configuration poll (CONFIG_POLL_MS, 500 ms), which this waits out.
 */
export async function raiseRateLimits(opened: OpenedDb): Promise<void> {
  const config = new ConfigService(new ConfigRepo(opened.db));
  await config.load();
  await config.set('rateLimits.anyCall.perMinute', '100000');
  await config.set('rateLimits.sendMessage.perSecond', '1000');
  await new Promise((r) => setTimeout(r, 1200));
}

/**
 * Each client sends `perClient` messages (`<scenario>:<client>:<k>`), one after another, to the
 * others in turn; `fault` starts once a third are through and runs alongside the rest. Ends when
 * every client has caught up with `sync`.
 */
export async function streamWithFault(
  scenario: string,
  clients: ReliableClient[],
  perClient: number,
  fault: () => Promise<void>,
): Promise<void> {
  const total = perClient * clients.length;
  let sent = 0;
  let faulted: Promise<void> | undefined;
  for (const c of clients) c.retries = 0;
  await Promise.all(
    clients.map(async (c, i) => {
      for (let k = 0; k < perClient; k++) {
        await c.send(clients[(i + 1 + (k % (clients.length - 1))) % clients.length]!.userId, `${scenario}:${i}:${k}`);
        sent += 1;
        if (sent >= total / 3) faulted ??= fault();
      }
    }),
  );
  await faulted;
  await new Promise((r) => setTimeout(r, 300));
  await Promise.all(clients.map((c) => c.catchUp()));
}

/** What the database holds of a scenario's messages, against what was sent and what clients hold. */
export interface Verdict {
  stored: number;
  lost: number;
  duplicated: number;
  /** Senders whose messages the database orders otherwise than they were sent (one at a time). */
  outOfOrder: number;
  /** Clients that do not hold exactly the private messages to and from them in the database. */
  holdingOtherwise: number;
  retries: number;
}

/** Judges a `streamWithFault` run by the database; prints the figures. */
export async function judge(
  label: string,
  opened: OpenedDb,
  scenario: string,
  clients: ReliableClient[],
  perClient: number,
): Promise<Verdict> {
  const userIds = clients.map((c) => c.userId);
  const rows = await opened.db
    .selectFrom('messages')
    .select(['id', 'from_user', 'to_id', 'content'])
    .where('chat_type', '=', 0)
    .where('from_user', 'in', userIds)
    .orderBy('id')
    .execute();
  const mine = rows.filter((r) => r.content.startsWith(`${scenario}:`));
  const stored = new Set(mine.map((r) => r.content));
  let lost = 0;
  for (let i = 0; i < clients.length; i++)
    for (let k = 0; k < perClient; k++) if (!stored.has(`${scenario}:${i}:${k}`)) lost += 1;
  const outOfOrder = clients.filter((c) => {
    const ks = mine.filter((r) => r.from_user === c.userId).map((r) => Number(r.content.split(':')[2]));
    return ks.some((k, j) => j > 0 && k <= ks[j - 1]!);
  }).length;
  const holdingOtherwise = clients.filter((c) => {
    const expected = rows.filter((r) => r.from_user === c.userId || r.to_id === c.userId).map((r) => r.id);
    const held = [...c.messages.keys()].sort((x, y) => x - y);
    return held.length !== expected.length || held.some((id, j) => id !== expected[j]);
  }).length;
  const verdict = {
    stored: mine.length,
    lost,
    duplicated: mine.length - stored.size,
    outOfOrder,
    holdingOtherwise,
    retries: clients.reduce((n, c) => n + c.retries, 0),
  };
  console.log(`${label}: ${perClient * clients.length} sent, ${JSON.stringify(verdict)}`);
  return verdict;
}
