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
import { createPgDatabase, type DbTarget } from './harness';

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

async function freePort(): Promise<number> {
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
    private readonly env: NodeJS.ProcessEnv,
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
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
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

/** Several server processes sharing one database and one Redis (with a prefix of their own). */
export class Cluster {
  private constructor(
    readonly nodes: Node[],
    readonly dataDir: string,
    readonly databaseUrl: string | undefined,
    private readonly dropDb: (() => Promise<void>) | undefined,
  ) {}

  static async start(target: DbTarget, redisUrl: string, size: number): Promise<Cluster> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-cluster-'));
    const pgDb = target === 'postgres' ? await createPgDatabase() : undefined;
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: pgDb?.url ?? '',
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `sparrow-test-${randomUUID()}:`,
      CONFIG_POLL_MS: '500',
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
  private ws: WebSocket | undefined;
  private closed = false;
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    public node: Node,
    readonly userId: number,
    readonly token: string,
  ) {}

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
      let settled = false;
      const done = () => {
        if (!settled) {
          settled = true;
          resolve();
        }
      };
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data));
        if (frame.type === 'init')
          ws.send(JSON.stringify({ type: 'bindUid', user_id: this.userId, token: this.token }));
        else if (frame.type === 'pong') {
          void this.catchUp();
          done();
        } else if (frame.type === 'simple' || frame.type === 'group') {
          this.pushes += 1;
          this.keep(frame.data);
        }
      });
      ws.on('error', () => undefined);
      ws.on('close', () => {
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
      const res = await this.node
        .call('sendMessage', { id, toContactId: to, type: 'text', content }, this.token)
        .catch(() => null);
      if (res?.code === 0) {
        this.keep(res.data);
        return res.data.msg_id;
      }
      if (res && typeof res.code === 'number' && res.code !== 429 && res.code !== 502)
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
