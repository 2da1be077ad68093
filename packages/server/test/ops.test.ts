import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { APP_VERSION, Codes, ErrorCodes, ROUTE_SCOPES, routeAliases, routes, type RouteName } from '@sparrow/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopback, metricsAccess } from '../src/modules/ops';
import { Node, freePort } from './cluster';
import { createPgDatabase, describeEachDb, signUp, startServer, TestSocket, type TestServer } from './harness';

/** The value of one series in a Prometheus text exposition, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const get = (server: TestServer, url: string, headers: Record<string, string> = {}, remoteAddress?: string) =>
  server.app.inject({ method: 'GET', url, headers, ...(remoteAddress ? { remoteAddress } : {}) });

describe('who may read /metrics', () => {
  it('knows loopback addresses, in IPv4, IPv6 and IPv4 written as IPv6', () => {
    for (const a of ['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true);
    for (const a of ['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', 'fe80::1', '128.0.0.1', '', undefined, 'localhost'])
      expect(isLoopback(a), String(a)).toBe(false);
  });

  it('lets loopback in, and others only with the token', () => {
    const local = { peer: '127.0.0.1', ip: '127.0.0.1', authorization: undefined };
    const outside = { peer: '203.0.113.7', ip: '203.0.113.7' };
    // A reverse proxy on this machine forwarding an outside request: the client is not local.
    const proxied = { peer: '127.0.0.1', ip: '203.0.113.7' };
    expect(metricsAccess(local, undefined)).toBe('ok');
    expect(metricsAccess(local, 'tok-1234567890')).toBe('ok');
    expect(metricsAccess({ ...outside, authorization: undefined }, 'tok-1234567890')).toBe('no-token');
    expect(metricsAccess({ ...proxied, authorization: undefined }, 'tok-1234567890')).toBe('no-token');
    expect(metricsAccess({ ...outside, authorization: 'Bearer tok-1234567890' }, 'tok-1234567890')).toBe('ok');
    expect(metricsAccess({ ...proxied, authorization: 'bearer tok-1234567890' }, 'tok-1234567890')).toBe('ok');
    expect(metricsAccess({ ...outside, authorization: 'Bearer tok-123456789' }, 'tok-1234567890')).toBe('wrong-token');
    expect(metricsAccess({ ...outside, authorization: 'tok-1234567890' }, 'tok-1234567890')).toBe('no-token');
    // No token configured: nobody outside, whatever they present.
    expect(metricsAccess({ ...outside, authorization: 'Bearer anything' }, undefined)).toBe('wrong-token');
    expect(metricsAccess({ ...outside, authorization: 'Bearer ' }, undefined)).toBe('no-token');
  });
});

describeEachDb('operators: health, readiness, metrics', (target) => {
  let server: TestServer;
  const token = 'metrics-token-for-the-test';
  beforeAll(async () => {
    server = await startServer(target, { env: { metricsToken: token } });
    await server.ctx.config.set('chatInfo.sendInterval', '0');
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers liveness and readiness', async () => {
    const live = await fetch(`${server.url}/healthz`);
    expect(live.status).toBe(200);
    expect(live.headers.get('cache-control')).toBe('no-store');
    expect(await live.json()).toEqual({ status: 'ok', version: APP_VERSION });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.text()).toBe('database: ok\n');
  });

  it('counts a send: the request, the message by type, the push, the database time', async () => {
    const ann = await signUp(server, `ann_ops_${target}`);
    const cat = await signUp(server, `cat_ops_${target}`);
    await server.call('friendAdd', { user_id: cat.userId }, { token: ann.token });
    await server.call('friendAdd', { user_id: ann.userId }, { token: cat.token });
    const sock = await TestSocket.open(server);
    sock.send({ type: 'bindUid', user_id: cat.userId, token: cat.token });
    await sock.waitFor((f) => f.type === 'pong');

    const scrape = async () => {
      const res = await fetch(`${server.url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      return res.text();
    };
    const sendSeries =
      'sparrow_http_request_duration_seconds_count{method="POST",route="/enterprise/im/sendMessage",code="200"}';
    const before = await scrape();
    const sent = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: cat.userId, type: 'text', content: 'counted' },
      { token: ann.token },
    );
    expect(sent.code).toBe(0);
    await sock.waitFor((f) => f.type === 'simple' && f.data?.content === 'counted');
    const after = await scrape();

    const delta = (series: string) => (sample(after, series) ?? 0) - (sample(before, series) ?? 0);
    expect(delta('sparrow_messages_sent_total{type="text"}')).toBe(1);
    expect(delta(sendSeries)).toBe(1);
    expect(delta('sparrow_pushes_delivered_total')).toBeGreaterThanOrEqual(1);
    expect(delta('sparrow_push_delay_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(delta('sparrow_db_queries_total')).toBeGreaterThan(0);
    expect(delta('sparrow_db_query_seconds_total')).toBeGreaterThan(0);
    expect(sample(after, 'sparrow_sockets{state="open"}')).toBe(1);
    expect(sample(after, 'sparrow_sockets{state="bound"}')).toBe(1);
    // PostgreSQL's pool: its connections, and none waiting once the send is answered; no pool on SQLite.
    if (target === 'postgres') {
      expect(sample(after, 'sparrow_db_pool_connections{state="total"}')).toBeGreaterThan(0);
      expect(sample(after, 'sparrow_db_pool_connections{state="waiting"}')).toBe(0);
    } else expect(sample(after, 'sparrow_db_pool_connections{state="total"}')).toBeUndefined();
    // The runtime's own series beside ours: event-loop delay and memory.
    expect(sample(after, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(after, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    sock.close();
  });

  it('counts rate-limit refusals by the error answered', async () => {
    const bob = await signUp(server, `bob_ops_${target}`);
    const series = 'sparrow_rate_limit_refusals_total{limit="SendTooFast"}';
    const before = sample(await (await fetch(`${server.url}/metrics`)).text(), series) ?? 0;
    await server.ctx.config.set('chatInfo.sendInterval', '60');
    try {
      const send = () =>
        server.call(
          'sendMessage',
          { id: randomUUID(), toContactId: bob.userId, type: 'text', content: 'hi' },
          { token: bob.token },
        );
      expect((await send()).code).toBe(0);
      expect((await send()).code).toBe(Codes.TooMany);
    } finally {
      await server.ctx.config.set('chatInfo.sendInterval', '0');
    }
    const after = sample(await (await fetch(`${server.url}/metrics`)).text(), series);
    expect(after).toBe(before + 1);
  });

  it('refuses /metrics to a caller not on this machine without the token, in the envelope and their language', async () => {
    const none = await get(server, '/metrics', { 'accept-language': 'fr' }, '203.0.113.7');
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.json()).toEqual({ code: Codes.Forbidden, msg: expect.any(String), data: null });
    const en = await get(server, '/metrics', { 'accept-language': 'en' }, '203.0.113.7');
    expect(en.json().msg).not.toBe(none.json().msg);

    const wrong = await get(server, '/metrics', { authorization: 'Bearer not-the-token' }, '203.0.113.7');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.body).not.toContain('sparrow_');

    // Through a proxy on this machine, the forwarded client decides.
    const proxied = await get(server, '/metrics', { 'x-forwarded-for': '203.0.113.7' }, '127.0.0.1');
    expect(proxied.statusCode).toBe(401);

    const right = await get(server, '/metrics', { authorization: `Bearer ${token}` }, '203.0.113.7');
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('sparrow_messages_sent_total');
  });
});

describeEachDb('operators: readiness when a part is down', (target) => {
  it('answers 503 naming the database once it is closed', async () => {
    const server = await startServer(target);
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      await server.ctx.db.destroy();
      const res = await fetch(`${server.url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.text()).toMatch(/^database: error: /);
      // Liveness is the process's alone.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close().catch(() => undefined);
    }
  });

  it('answers 503 while the server is closing', async () => {
    let during: { status: number } | undefined;
    const server = await startServer(target, {
      // While this hook runs the server is closing but still listening.
      extraRoutes: (app) =>
        app.addHook('preClose', async () => {
          const res = await fetch(`${server.url}/readyz`);
          during = { status: res.status };
          await res.arrayBuffer();
        }),
    });
    await server.close();
    expect(during?.status).toBe(503);
  });

  it('a process sent SIGTERM answers 503 `server: stopping` for SHUTDOWN_DRAIN_MS while serving the rest, then exits', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-drain-'));
    const pgDb = target === 'postgres' ? await createPgDatabase() : undefined;
    const node = new Node(await freePort(), {
      DATA_DIR: dataDir,
      DATABASE_URL: pgDb?.url ?? '',
      REDIS_URL: '',
      SHUTDOWN_DRAIN_MS: '1500',
    });
    try {
      await node.start();
      expect((await fetch(`${node.url}/readyz`)).status).toBe(200);
      const sent = Date.now();
      const stopped = node.stop();
      await expect.poll(async () => (await fetch(`${node.url}/readyz`)).status).toBe(503);
      const res = await fetch(`${node.url}/readyz`);
      expect(await res.text()).toBe('database: ok\nserver: stopping\n');
      // Everything else is served as before while it drains.
      expect((await fetch(`${node.url}/healthz`)).status).toBe(200);
      expect((await node.call('getSystemInfo', {})).code).toBe(Codes.Ok);
      await stopped;
      expect(Date.now() - sent).toBeGreaterThanOrEqual(1500);
      await expect(fetch(`${node.url}/healthz`)).rejects.toThrow();
    } finally {
      await node.kill('SIGKILL');
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it.skipIf(!process.env.REDIS_URL)('answers 503 naming Redis once Redis is unreachable', async () => {
    // A TCP relay in front of the real Redis: closing it makes Redis unreachable for the server.
    const redisUrl = new URL(process.env.REDIS_URL!);
    const open = new Set<net.Socket>();
    const relay = net.createServer((client) => {
      const upstream = net.connect(Number(redisUrl.port || 6379), redisUrl.hostname);
      for (const s of [client, upstream]) {
        open.add(s);
        s.on('error', () => undefined);
        s.on('close', () => open.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const port = (relay.address() as net.AddressInfo).port;
    const server = await startServer(target, {
      env: { redisUrl: `redis://127.0.0.1:${port}`, redisPrefix: `sparrow-ops-${randomUUID()}:` },
    });
    try {
      const ok = await fetch(`${server.url}/readyz`);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toBe('database: ok\nredis: ok\n');

      await new Promise<void>((resolve) => {
        relay.close(() => resolve());
        for (const s of open) s.destroy();
      });
      const started = Date.now();
      const res = await fetch(`${server.url}/readyz`);
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(text).toMatch(/^database: ok\nredis: (timeout|error: .+)\n$/);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await server.close();
    }
  });
});

describeEachDb('operators: the API document', (target) => {
  let server: TestServer;
  let doc: any;
  beforeAll(async () => {
    server = await startServer(target);
    const res = await fetch(`${server.url}/openapi.json`);
    expect(res.status).toBe(200);
    doc = await res.json();
  });
  afterAll(async () => {
    await server.close();
  });

  it('describes every route of the route table and its aliases', () => {
    expect(doc.openapi).toBe('3.1.0');
    const missing: string[] = [];
    for (const name of Object.keys(routes) as RouteName[]) {
      for (const url of [routes[name].path, ...(routeAliases[name] ?? [])]) {
        // A `:name` segment of the route table is an OpenAPI path parameter `{name}`.
        const op = doc.paths[url.replace(/:([A-Za-z]+)/g, '{$1}')]?.post;
        if (!op?.requestBody || !op.responses?.['200']) missing.push(`${name} ${url}`);
      }
    }
    expect(missing).toEqual([]);
    // And a group robot's webhook, which is outside the table.
    expect(Object.keys(doc.paths).length).toBe(
      Object.keys(routes).length + Object.values(routeAliases).reduce((n, a) => n + a.length, 0) + 1,
    );
  });

  it('gives each body its schema, with the doc comments as descriptions', () => {
    const send = doc.paths[routes.sendMessage.path].post;
    const body = send.requestBody.content['application/json'].schema;
    expect(body.properties.id.description).toMatch(/retrying with the same id never duplicates/);
    expect(body.properties.id.maxLength).toBe(64);
    expect(body.properties.type.enum).toContain('image');
    expect(body.required).toEqual(expect.arrayContaining(['id', 'toContactId', 'content']));
    expect(send.operationId).toBe('sendMessage');

    const upload = doc.paths[routes.uploadFile.path].post.requestBody.content['multipart/form-data'].schema;
    expect(upload.properties.file).toBeDefined();
    expect(upload.required).toContain('file');
  });

  it('answers in the envelope, with its codes, the data of each route, and who needs a session', () => {
    const envelope = doc.components.schemas.Envelope;
    expect(envelope.properties.code.enum).toEqual(expect.arrayContaining(Object.values(Codes)));
    expect(doc.components.schemas.ErrorName.enum).toEqual(Object.keys(ErrorCodes));

    const send = doc.paths[routes.sendMessage.path].post;
    const answer = send.responses['200'].content['application/json'].schema;
    expect(answer.allOf[0].$ref).toBe('#/components/schemas/Envelope');
    expect(answer.allOf[1].properties.data.$ref).toBe('#/components/schemas/Message');
    expect(doc.components.schemas.Message).toBeDefined();
    expect(send.responses['429'].$ref).toBe('#/components/responses/TooMany');
    expect(doc.security).toEqual([{ session: [] }]);
    // A personal access token (docs/protocol.md §9): each call names the scope it needs, or takes none.
    expect(send.security).toEqual([{ session: [] }, { token: ['messages:send'] }]);
    expect(send['x-token-scope']).toBe('messages:send');
    expect(send.description).toMatch(/needs the `messages:send` scope/);
    expect(doc.components.securitySchemes.token).toMatchObject({ type: 'http', scheme: 'bearer' });
    const tokens = doc.paths[routes.tokenCreate.path].post;
    expect(tokens.security).toEqual([{ session: [] }]);
    expect(tokens['x-token-scope']).toBeUndefined();
    expect(tokens.description).toMatch(/No personal access token may call this/);
    expect(tokens.responses['200'].description).toMatch(/403 TokenScope/);
    // The console's routes on a user's way in take no token, `admin` or not.
    expect(doc.paths[routes.manageUserPassword.path].post['x-token-scope']).toBeUndefined();
    expect(doc.paths[routes.manageStats.path].post['x-token-scope']).toBe('admin');
    for (const name of Object.keys(routes) as RouteName[]) {
      const scope = ROUTE_SCOPES[name];
      if (scope) expect(doc.paths[routes[name].path].post['x-token-scope'], name).toBe(scope);
      if (routes[name].admin) expect([undefined, 'admin'], name).toContain(scope);
    }

    // A group robot's webhook (docs/protocol.md §10): outside the table, no session, WeCom's answer.
    const webhook = doc.paths['/cgi-bin/webhook/send'].post;
    expect(webhook.security).toEqual([]);
    expect(webhook.parameters).toEqual([{ name: 'key', in: 'query', required: true, schema: { type: 'string' } }]);
    expect(webhook.requestBody.content['application/json'].schema.oneOf).toHaveLength(2);
    expect(webhook.responses['200'].content['application/json'].schema.required).toEqual(['errcode', 'errmsg']);
    expect(doc.paths[routes.groupRobotAdd.path].post['x-token-scope']).toBe('groups:manage');
    // What a bot's webhook is sent, and the bot routes, which take a session only.
    const botEvent = doc.webhooks.botMessage.post;
    expect(botEvent.parameters.map((p: any) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    expect(botEvent.requestBody.content['application/json'].schema.properties.data.properties.reply_to).toBeDefined();
    expect(doc.paths[routes.botCreate.path].post['x-token-scope']).toBeUndefined();

    // The /manage/* calls say they are for administrators, and no other call does.
    const adminOnly = Object.entries(doc.paths)
      .filter(([, item]: [string, any]) => item.post['x-admin'] === true)
      .map(([url]) => url);
    const manage = (Object.keys(routes) as RouteName[]).filter((n) => routes[n].admin).map((n) => routes[n].path);
    expect(manage.length).toBeGreaterThan(0);
    expect(adminOnly.sort()).toEqual(manage.sort());
    expect(manage.every((p) => p.startsWith('/manage/'))).toBe(true);
    const stats = doc.paths[routes.manageStats.path].post;
    expect(stats.description).toMatch(/^Administrators only/);
    expect(stats.responses['200'].description).toMatch(/403 Forbidden to anyone whose role is not admin/);
    expect(send.description).not.toMatch(/Administrators only/);
    expect(send.responses['200'].description).toMatch(/PasswordChangeRequired/);
    expect(doc.paths[routes.editPassword.path].post.responses['200'].description).not.toMatch(/PasswordChangeRequired/);

    const login = doc.paths[routes.login.path].post;
    expect(login.security).toEqual([]);
    const contacts = doc.paths[routes.getContacts.path].post.responses['200'].content['application/json'].schema;
    expect(contacts.allOf[1].properties.data).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Contact' },
    });
    expect(doc.paths[routes.getContacts.path].post.description).toMatch(/pending friend requests/);
  });

  it('shows the document at /docs with a viewer served from here, under the security policy', async () => {
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).not.toMatch(/<script>|https?:\/\//);
    for (const asset of [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)) {
      const res = await fetch(new URL(asset, `${server.url}/docs`));
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
    }
    const init = await (await fetch(`${server.url}/docs/init.js`)).text();
    expect(init).toContain("url: 'openapi.json'");
    // Only the viewer's own files, not the rest of its package.
    for (const other of ['index.html', 'package.json', 'swagger-initializer.js']) {
      const res = await fetch(`${server.url}/docs/assets/${other}`);
      expect(res.status, other).toBe(404);
      await res.arrayBuffer();
    }
  });
});
