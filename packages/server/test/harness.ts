import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect } from 'vitest';
import {
  CLIENT_HEADER,
  negotiateLocale,
  parseServerFrame,
  parseRaingadFrame,
  PushEventSchemas,
  routes,
  translate,
  type Envelope,
  type MessageKey,
  type RouteBody,
  type RouteName,
} from '@sparrow/protocol';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../src/app';
import { loadConfig, type ServerConfig } from '../src/config';
import type { AppContext } from '../src/context';
import type { Services } from '../src/services';
import { migrate, openDb, type OpenedDb } from '../src/db';

export type DbTarget = 'sqlite' | 'postgres';

/**
 * The databases every integration suite runs on: SQLite always, PostgreSQL when DATABASE_URL is
 * set. With CI=true a missing DATABASE_URL is a failure, not a skip.
 */
export function dbTargets(): DbTarget[] {
  if (process.env.DATABASE_URL) return ['sqlite', 'postgres'];
  if (process.env.CI === 'true')
    throw new Error('CI=true but DATABASE_URL is not set: the PostgreSQL suites cannot run');
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

/** A response as the test sees it: status, envelope, headers. */
export interface RawResponse {
  status: number;
  json: Envelope<any>;
  headers: Record<string, unknown>;
}

export interface TestServer {
  app: FastifyInstance;
  ctx: AppContext;
  /** Every service, for what no request reaches (the call sweep). */
  services: Services;
  clock: TestClock;
  /** http://127.0.0.1:<port> */
  url: string;
  dataDir: string;
  /** Calls an endpoint by its route name with a JSON body. */
  call<N extends RouteName>(
    name: N,
    body?: RouteBody<N> | Record<string, unknown>,
    opts?: CallOptions,
  ): Promise<Envelope<any>>;
  /** Like `call`, with the HTTP status and headers. */
  callRaw<N extends RouteName>(
    name: N,
    body?: RouteBody<N> | Record<string, unknown>,
    opts?: CallOptions,
  ): Promise<RawResponse>;
  /** Posts raw to a path (for bad bodies, form encoding, odd paths). */
  post(url: string, payload: string | object, headers?: Record<string, string>): Promise<RawResponse>;
  /** Uploads a file as multipart/form-data over real HTTP. */
  upload<N extends RouteName>(name: N, file: UploadFile | null, opts?: CallOptions): Promise<RawResponse>;
  /** A GET over real HTTP, as a browser would fetch a stored file. */
  get(url: string): Promise<{ status: number; headers: Headers; body: Buffer }>;
  /** The newest verification code delivered to `to` (read from `<dataDir>/outbox`). */
  lastCode(to: string): string;
  /** Every response body this server gave, for the leak scan. */
  readonly bodies: string[];
  /** Fails when any response so far carried a password hash, its salt or its key. */
  assertNoSecretsLeaked(): Promise<void>;
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string | undefined;
  /** `Accept-Language`; `null` sends none (the server then answers in zh-Hans). */
  lang?: string | null;
  /** The caller's address (X-Forwarded-For), to keep per-IP limits of one test apart. */
  ip?: string;
  headers?: Record<string, string>;
  /** Form fields sent before the file, for uploads. */
  fields?: Record<string, string>;
}

export interface UploadFile {
  name: string;
  bytes: Buffer;
  type?: string;
}

/** Strings that must never appear in any response (docs/protocol.md §2 userInfo, **secure**). */
const FORBIDDEN = ['password_hash', 'scrypt$'];

function scanForSecrets(text: string, where: string): void {
  for (const s of FORBIDDEN) {
    if (text.includes(s)) throw new Error(`${where} leaked "${s}": ${text.slice(0, 500)}`);
  }
}

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations');
const TEMPLATE_PREFIX = 'sparrow_tpl_';

const databaseUrl = (name: string) => {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
};

let template: Promise<string | null> | undefined;

/**
 * A migrated database that test databases are copied from, named after the migrations' content so
 * that a changed migration gets a new one. Built under a temporary name and renamed when complete,
 * so no copy is ever taken of a half-migrated one. Copying takes a fraction of migrating; the
 * server still runs its migrations on the copy at start, so a missing template only costs time.
 */
function migratedTemplate(): Promise<string | null> {
  template ??= (async () => {
    const hash = createHash('sha256');
    for (const f of fs.readdirSync(MIGRATIONS_DIR).sort())
      hash.update(f).update(fs.readFileSync(path.join(MIGRATIONS_DIR, f)));
    // The list that orders the migrations, too: a file is run only once it is listed there.
    hash.update(fs.readFileSync(path.join(MIGRATIONS_DIR, '../index.ts')));
    const name = `${TEMPLATE_PREFIX}${hash.digest('hex').slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const found = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
        `${TEMPLATE_PREFIX}%`,
      ]);
      if (found.rows.some((r) => r.datname === name)) return name;
      for (const { datname } of found.rows) {
        if (/^sparrow_tpl_[0-9a-f]{12}$/.test(datname))
          await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
      }
      const building = `${name}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      await admin.query(`CREATE DATABASE ${building}`);
      const opened = openDb({ databaseUrl: databaseUrl(building), dataDir: os.tmpdir() });
      try {
        await migrate(opened);
      } finally {
        await opened.close();
      }
      try {
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      } catch {
        await admin.query(`DROP DATABASE IF EXISTS ${building}`);
      }
      return name;
    } finally {
      await admin.end();
    }
  })().catch(() => null);
  return template;
}

export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(process.env.DATABASE_URL!);
  const name = `sparrow_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const from = await migratedTemplate();
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  try {
    if (!from) throw new Error('no template');
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${from}`);
  } catch {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl(name));
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

/** A migrated database of a suite's own, without a server: a fresh SQLite file or PostgreSQL database. */
export async function openTestDb(
  target: DbTarget,
): Promise<{ opened: OpenedDb; dataDir: string; close: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-db-'));
  const pgDb = target === 'postgres' ? await createPgDatabase() : undefined;
  const opened = openDb({ dataDir, databaseUrl: pgDb?.url });
  await migrate(opened);
  return {
    opened,
    dataDir,
    close: async () => {
      await opened.close();
      await pgDb?.drop();
    },
  };
}

/** A users row as a suite inserts it straight into the database. */
export const userRow = (account: string, status = 1) => ({
  account,
  password_hash: '',
  realname: account.toUpperCase(),
  email: '',
  phone: '',
  avatar: '',
  sex: 0,
  motto: '',
  is_auth: 0,
  role: 0,
  status,
  language: '',
  create_time: 1,
  update_time: 1,
});

function headersFor(o: CallOptions): Record<string, string> {
  // The calls of these suites speak as Sparrow's own client; raingad-compat.test.ts posts as the old ones.
  const headers: Record<string, string> = { [CLIENT_HEADER.toLowerCase()]: 'web' };
  if (o.lang !== null) headers['accept-language'] = o.lang ?? 'en';
  if (o.token) headers.authorization = o.token;
  if (o.ip) headers['x-forwarded-for'] = o.ip;
  return { ...headers, ...o.headers };
}

/** Starts a real server on a random port, on its own fresh database and data directory. */
export async function startServer(
  target: DbTarget,
  opts: BuildOptions & {
    env?: Partial<ServerConfig>;
    /** Routes of the test itself (e.g. an echo of the parsed body), added before the server listens. */
    extraRoutes?: (app: FastifyInstance) => void;
  } = {},
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
    // Suites sweep the outbox themselves (pipeline.sweepUnpublished), so that no sweep runs unasked.
    outboxSweepMs: 0,
    // A search brings the index up to date itself; the background run's own test turns it on.
    searchIndexMs: 0,
    // An export is built when asked for; suites sweep expired archives themselves (exports.sweep).
    exportSweepMs: 0,
    // A bot's delivery is tried when it is owed; suites sweep retries themselves (botDeliveries.sweep).
    botDeliverySweepMs: 0,
    logLevel: 'silent',
    // Suites sign many people up from one address; the limit's own tests set REGISTER_PER_HOUR's default back.
    registerPerHour: 0,
    ...opts.env,
  };
  const { extraRoutes, env: _env, ...buildOpts } = opts;
  const { app, ctx, services } = await buildApp(env, { now: clock.now, logger: false, ...buildOpts });
  extraRoutes?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const bodies: string[] = [];

  const record = (text: string, where: string) => {
    bodies.push(text);
    scanForSecrets(text, where);
  };

  const post: TestServer['post'] = async (u, payload, headers = {}) => {
    const isString = typeof payload === 'string';
    const res = await app.inject({
      method: 'POST',
      url: u,
      headers: { ...(isString ? {} : { 'content-type': 'application/json' }), ...headers },
      payload: isString ? payload : JSON.stringify(payload),
    });
    record(res.body, `POST ${u}`);
    return { status: res.statusCode, json: res.json(), headers: res.headers };
  };

  const assertNoSecretsLeaked = async () => {
    const hashes = await ctx.db.selectFrom('users').select('password_hash').execute();
    const secrets = hashes.flatMap((h) => h.password_hash.split('$').slice(1)).filter((s) => s.length >= 16);
    for (const text of bodies) {
      scanForSecrets(text, 'a response');
      for (const s of secrets)
        if (text.includes(s)) throw new Error(`a response leaked a password salt or key: ${text.slice(0, 500)}`);
    }
  };

  const callRaw: TestServer['callRaw'] = (name, body = {}, o = {}) =>
    post(routes[name].path, body as object, headersFor(o));

  return {
    app,
    ctx,
    services,
    clock,
    url,
    dataDir,
    bodies,
    post,
    callRaw,
    async call(name, body = {}, o = {}) {
      return (await callRaw(name, body, o)).json;
    },
    async upload(name, file, o = {}) {
      const form = new FormData();
      for (const [k, v] of Object.entries(o.fields ?? {})) form.append(k, v);
      if (file)
        form.append(
          'file',
          new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }),
          file.name,
        );
      else form.append('note', 'no file');
      const res = await fetch(`${url}${routes[name].path}`, { method: 'POST', body: form, headers: headersFor(o) });
      const text = await res.text();
      record(text, `upload ${name}`);
      return { status: res.status, json: JSON.parse(text), headers: Object.fromEntries(res.headers) };
    },
    async get(u) {
      const res = await fetch(`${url}${u}`);
      return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
    },
    lastCode(to) {
      const dir = path.join(dataDir, 'outbox');
      const letters = (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
        .sort()
        .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
        .filter((text) => text.startsWith(`To: ${to}\n`));
      const code = /\b(\d{6})\b/.exec(letters.at(-1) ?? '')?.[1];
      if (!code) throw new Error(`no code delivered to ${to}`);
      return code;
    },
    assertNoSecretsLeaked,
    async close() {
      try {
        await assertNoSecretsLeaked();
      } finally {
        await app.close();
        await pgDb?.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Registers a user and opens a session for it; returns its token and id. */
export async function signUp(
  server: TestServer,
  account: string,
  password = 'secret123',
  realname = account,
  opts: CallOptions = {},
): Promise<{ token: string; userId: number; account: string; password: string }> {
  const reg = await server.call('register', { account, password, realname }, opts);
  if (reg.code !== 0) throw new Error(`register ${account}: ${reg.msg}`);
  // The session comes straight from the session service: login has its own tests, and its
  // password check would otherwise be a large share of the suite's CPU time.
  const session = await server.ctx.sessions.create(reg.data.user_id, {
    cid: '',
    isMobile: false,
    userAgent: 'test',
    ip: '127.0.0.1',
  });
  return { token: `bearer ${session.token}`, userId: reg.data.user_id, account, password };
}

/** Calls a suite's tests make as one of its users. */
export interface SuiteCalls {
  /** The call's envelope as it came. */
  answer(name: RouteName, body: object, as: TestUser): Promise<Envelope<any>>;
  /** The call's data; fails the test, naming the route and the message, when it did not succeed. */
  ok(name: RouteName, body: object, as: TestUser): Promise<any>;
  /** A text from `from` to a user or a contact id (a group's), with a fresh client id; its envelope. */
  send(from: TestUser, to: TestUser | number | string, content: string, extra?: object): Promise<Envelope<any>>;
  /** As `send`, answering the message sent; fails the test when it was refused. */
  text(from: TestUser, to: TestUser | number | string, content: string): Promise<any>;
}

/**
 * The suite's server: started on `target` before its tests (and handed to `use`), closed after
 * them; `settings` (a config path and its value each, in order) set again before every test.
 * Answers the calls its tests make as a user.
 */
export function serverForSuite(
  target: DbTarget,
  use: (server: TestServer) => void,
  settings: Record<string, string> = {},
): SuiteCalls {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer(target);
    use(server);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    for (const [key, value] of Object.entries(settings)) await server?.ctx.config.set(key, value);
  });
  const answer = (name: RouteName, body: object, as: TestUser) => server!.call(name, body, callAs(as));
  const ok = async (name: RouteName, body: object, as: TestUser) => {
    const res = await answer(name, body, as);
    expect(res.code, `${name}: ${res.msg}`).toBe(0);
    return res.data;
  };
  const message = (to: TestUser | number | string, content: string, extra: object = {}) => ({
    id: randomUUID(),
    toContactId: typeof to === 'object' ? to.userId : to,
    type: 'text',
    content,
    ...extra,
  });
  return {
    answer,
    ok,
    send: (from, to, content, extra) => answer('sendMessage', message(to, content, extra), from),
    text: (from, to, content) => ok('sendMessage', message(to, content), from),
  };
}

/** Someone `signUp` made; with `lang`, each call made for them states it (the server remembers the last). */
export interface TestUser {
  token: string;
  userId: number;
  lang?: string | null;
}

/** The options of a call made as `u`: their token, and their language when they have one. */
export const callAs = (u: TestUser): CallOptions => ({ token: u.token, ...(u.lang !== undefined && { lang: u.lang }) });

/** Makes `a` and `b` friends: each asks to befriend the other. */
export async function makeFriends(server: TestServer, a: TestUser, b: TestUser): Promise<void> {
  await server.call('friendAdd', { user_id: b.userId }, callAs(a));
  await server.call('friendAdd', { user_id: a.userId }, callAs(b));
}

/** Befriends `owner` with each member, then has `owner` make a group of them; answers its id. */
export async function makeGroup(server: TestServer, owner: TestUser, members: TestUser[]): Promise<string> {
  for (const m of members) await makeFriends(server, owner, m);
  const res = await server.call('groupAdd', { user_ids: members.map((m) => m.userId) }, callAs(owner));
  expect(res.code, res.msg).toBe(0);
  return res.data.id as string;
}

/** Logs in again; returns the new session's token. */
export async function logIn(
  server: TestServer,
  account: string,
  password: string,
  opts: CallOptions = {},
): Promise<string> {
  const login = await server.call('login', { account, password }, opts);
  if (login.code !== 0) throw new Error(`login ${account}: ${login.msg}`);
  return login.data.authToken;
}

/** The languages bad-body checks rotate through; `null` sends no Accept-Language (zh-Hans). */
export const LANGS = [null, 'en', 'fr', 'es', 'zh-Hant', 'zh-TW', 'en-US,en;q=0.9'] as const;

/** One bad body: the field set to `value` (or left out with `MISSING`) and the message expected. */
export interface BadCase {
  field: string;
  value: unknown;
  key: MessageKey;
  params?: Record<string, string | number>;
}

/** Leaves a field out of a bad-body case. */
export const MISSING = Symbol('missing');

/**
 * Sends each bad body (a valid body with one field spoilt) and checks the answer: code 400,
 * `data.fields` naming the field, and `msg` in the caller's language, rotating through LANGS.
 */
export async function expectBadBodies<N extends RouteName>(
  server: TestServer,
  name: N,
  valid: Record<string, unknown>,
  cases: BadCase[],
  opts: CallOptions = {},
): Promise<void> {
  for (const [i, c] of cases.entries()) {
    const lang = LANGS[i % LANGS.length]!;
    const body: Record<string, unknown> = { ...valid };
    if (c.value === MISSING) delete body[c.field];
    else body[c.field] = c.value;
    const res = await server.call(name, body, { ...opts, lang });
    const locale = negotiateLocale(lang);
    const label = translate(locale, `field.${c.field}` as MessageKey);
    const what = `${name} ${c.field}=${String(c.value === MISSING ? '(missing)' : JSON.stringify(c.value))} [${lang ?? 'no Accept-Language'}]`;
    expect(res.code, what).toBe(400);
    expect(res.data?.fields, what).toContain(c.field);
    expect(res.msg, what).toBe(translate(locale, c.key, { field: label, ...c.params }));
  }
}

/** Frames received since the last test ended that protocol's schemas do not describe. */
const undescribed: string[] = [];

/**
 * Holds a frame from the server to protocol's schemas (events.ts), the client's own parser: one
 * they do not describe fails the test that received it, so the schemas stay the truth of the wire.
 */
export function checkServerFrame(frame: unknown): void {
  // Sockets of Raingad 6.x clients read a few pushes in the original shape (present.ts).
  if (parseServerFrame(frame) !== null || parseRaingadFrame(frame) !== null) return;
  const type = typeof frame === 'object' && frame !== null && 'type' in frame ? frame.type : undefined;
  const data = typeof frame === 'object' && frame !== null && 'data' in frame ? frame.data : undefined;
  const schema = Object.entries(PushEventSchemas).find(([name]) => name === type)?.[1];
  const why = schema ? JSON.stringify(schema.safeParse(data).error?.issues) : 'no such frame type';
  undescribed.push(`${JSON.stringify(frame).slice(0, 2000)}\n  ${why}`);
}

afterEach(() => {
  const found = undescribed.splice(0);
  if (found.length) throw new Error(`frames protocol's schemas do not describe:\n${found.join('\n')}`);
});

/** A real WebSocket client that records every frame it receives; each must parse with protocol's schemas. */
export class TestSocket {
  readonly frames: any[] = [];
  closeCode: number | null = null;
  clientId = '';
  /** How many chunks the connection has read: frames written together arrive as one. */
  reads = 0;
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = String(data);
      scanForSecrets(text, 'a socket frame');
      const frame = JSON.parse(text);
      checkServerFrame(frame);
      if (frame.type === 'init') this.clientId = frame.client_id;
      this.frames.push(frame);
      this.notify();
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      this.notify();
    });
    // A connection reset is seen as its close event (1006); unheard, 'error' would end the run.
    ws.on('error', () => undefined);
  }

  private notify() {
    for (const w of this.waiters.splice(0)) w();
  }

  static async open(server: Pick<TestServer, 'url'>, headers: Record<string, string> = {}): Promise<TestSocket> {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/wss`, {
      headers,
      createConnection: ((options: net.NetConnectOpts) =>
        net.connect(options).on('data', () => {
          sock.reads += 1;
        })) as typeof net.createConnection,
    });
    const sock = new TestSocket(ws);
    await sock.waitFor((f) => f.type === 'init');
    return sock;
  }

  send(frame: unknown) {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Waits for a frame matching `pred` (already received or coming), or fails after `ms`. */
  async waitFor(pred: (f: any) => boolean, ms = 3000, from = 0): Promise<any> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.frames.slice(from).find(pred);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching frame within ${ms} ms; got ${JSON.stringify(this.frames)}`);
      await this.wait(left);
    }
  }

  /** Waits for the socket to close; resolves with the close code. */
  async waitClosed(ms = 3000): Promise<number> {
    const deadline = Date.now() + ms;
    while (this.closeCode === null) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('socket did not close');
      await this.wait(left);
    }
    return this.closeCode;
  }

  /** Sends a ping and waits for the pong that answers it: the socket is still open and served. */
  async roundTrip(ms = 3000): Promise<any> {
    const from = this.frames.length;
    this.send({ type: 'ping' });
    return this.waitFor((f) => f.type === 'pong', ms, from);
  }

  private wait(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  /** Opens a socket and binds it to a user with its token; resolves with the bind's pong. */
  static async bound(
    server: Pick<TestServer, 'url'>,
    userId: number,
    token: string,
    headers: Record<string, string> = {},
  ): Promise<TestSocket> {
    const sock = await TestSocket.open(server, headers);
    sock.send({ type: 'bindUid', user_id: userId, token });
    await sock.waitFor((f) => f.type === 'pong');
    return sock;
  }

  close() {
    this.ws.close();
  }
}

/** A line of the server's log, as pino writes it. */
export interface LogLine {
  level: number;
  msg: string;
  err?: { stack?: string };
  [key: string]: unknown;
}

/** pino's numbers for the levels tests assert on. */
export const LOG_LEVEL = { warn: 40, error: 50 } as const;

/**
 * The lines the app logs from now on (start the server with `logger: true`). Fastify's options give
 * a level, not a stream, so the stream of the root pino logger (which every request's child logger
 * inherits) is swapped for one the test reads.
 */
export function captureLog(app: FastifyInstance): LogLine[] {
  const lines: LogLine[] = [];
  for (let logger: object | null = app.log; logger; logger = Object.getPrototypeOf(logger) as object | null) {
    const sym = Object.getOwnPropertySymbols(logger).find((s) => s.description === 'pino.stream');
    if (sym) {
      (logger as Record<symbol, unknown>)[sym] = { write: (text: string) => lines.push(JSON.parse(text) as LogLine) };
      return lines;
    }
  }
  throw new Error('no pino stream on the app logger');
}
