import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { WebSocket } from 'ws';
import { describe } from 'vitest';
import { routes, type Envelope, type RouteBody, type RouteName } from '@sparrow/protocol';
import { buildApp, type BuildOptions } from '../src/app';
import { loadConfig, type ServerConfig } from '../src/config';
import type { AppContext } from '../src/context';
import type { FastifyInstance } from 'fastify';

export type DbTarget = 'sqlite' | 'postgres';

/**
 * The databases every integration suite runs on: SQLite always, PostgreSQL when DATABASE_URL is
 * set. With CI=true a missing DATABASE_URL is a failure, not a skip.
 */
export function dbTargets(): DbTarget[] {
  if (process.env.DATABASE_URL) return ['sqlite', 'postgres'];
  if (process.env.CI === 'true') throw new Error('CI=true but DATABASE_URL is not set: the PostgreSQL suites cannot run');
  return ['sqlite'];
}

/** Runs a suite once per database target. */
export function describeEachDb(name: string, fn: (target: DbTarget) => void): void {
  for (const target of dbTargets()) describe(`${name} [${target}]`, () => fn(target));
}

/** A clock tests move forward instead of sleeping. */
export class TestClock {
  t = Date.now();
  now = () => this.t;
  advance(ms: number) {
    this.t += ms;
  }
}

export interface TestServer {
  app: FastifyInstance;
  ctx: AppContext;
  clock: TestClock;
  /** http://127.0.0.1:<port> */
  url: string;
  dataDir: string;
  /** Calls an endpoint by its route name with a JSON body. */
  call<N extends RouteName>(name: N, body?: RouteBody<N> | Record<string, unknown>, opts?: CallOptions): Promise<Envelope<any>>;
  /** Posts raw to a path (for bad bodies, form encoding, odd paths). */
  post(url: string, payload: string | object, headers?: Record<string, string>): Promise<{ status: number; json: Envelope<any>; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string | undefined;
  lang?: string;
  headers?: Record<string, string>;
}

async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(process.env.DATABASE_URL!);
  const name = `sparrow_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Starts a real server on a random port, on its own fresh database and data directory. */
export async function startServer(
  target: DbTarget,
  opts: BuildOptions & { env?: Partial<ServerConfig> } = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-test-'));
  const pgDb = target === 'postgres' ? await createPgDatabase() : undefined;
  const clock = new TestClock();
  const env: ServerConfig = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: pgDb?.url,
    redisUrl: undefined,
    webDist: undefined,
    configPollMs: 0,
    logLevel: 'silent',
    ...opts.env,
  };
  const { app, ctx } = await buildApp(env, { now: clock.now, logger: false, ...opts });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;

  const post: TestServer['post'] = async (u, payload, headers = {}) => {
    const isString = typeof payload === 'string';
    const res = await app.inject({
      method: 'POST',
      url: u,
      headers: { ...(isString ? {} : { 'content-type': 'application/json' }), ...headers },
      payload: isString ? payload : JSON.stringify(payload),
    });
    return { status: res.statusCode, json: res.json(), headers: res.headers };
  };

  return {
    app,
    ctx,
    clock,
    url,
    dataDir,
    post,
    async call(name, body = {}, o = {}) {
      const headers: Record<string, string> = { 'accept-language': o.lang ?? 'en', ...o.headers };
      if (o.token) headers.authorization = o.token;
      return (await post(routes[name].path, body as object, headers)).json;
    },
    async close() {
      await app.close();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Registers and logs in a user; returns its token and id. */
export async function signUp(
  server: TestServer,
  account: string,
  password = 'secret123',
  realname = account,
): Promise<{ token: string; userId: number; account: string; password: string }> {
  const reg = await server.call('register', { account, password, realname });
  if (reg.code !== 0) throw new Error(`register ${account}: ${reg.msg}`);
  const login = await server.call('login', { account, password });
  if (login.code !== 0) throw new Error(`login ${account}: ${login.msg}`);
  return { token: login.data.authToken, userId: login.data.userInfo.user_id, account, password };
}

/** A real WebSocket client that records every frame it receives. */
export class TestSocket {
  readonly frames: any[] = [];
  closeCode: number | null = null;
  clientId = '';
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data));
      if (frame.type === 'init') this.clientId = frame.client_id;
      this.frames.push(frame);
      this.notify();
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      this.notify();
    });
  }

  private notify() {
    for (const w of this.waiters.splice(0)) w();
  }

  static async open(server: TestServer, headers: Record<string, string> = {}): Promise<TestSocket> {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/wss`, { headers });
    const sock = new TestSocket(ws);
    await sock.waitFor((f) => f.type === 'init');
    return sock;
  }

  send(frame: unknown) {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Waits for a frame matching `pred` (already received or coming), or fails after `ms`. */
  async waitFor(pred: (f: any) => boolean, ms = 3000): Promise<any> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.frames.find(pred);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching frame within ${ms} ms; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async waitClosed(ms = 3000): Promise<number> {
    const deadline = Date.now() + ms;
    while (this.closeCode === null) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('socket did not close');
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.closeCode;
  }

  /** Opens a socket and binds it to a user with its token; resolves with the bind's pong. */
  static async bound(server: TestServer, userId: number, token: string): Promise<TestSocket> {
    const sock = await TestSocket.open(server);
    sock.send({ type: 'bindUid', user_id: userId, token });
    await sock.waitFor((f) => f.type === 'pong');
    return sock;
  }

  close() {
    this.ws.close();
  }
}
