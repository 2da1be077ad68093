import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  befriend,
  hidden,
  launchBrowser,
  phoneContext,
  ServerProcess,
  shot,
  signIn,
  socketBound,
  visible,
  WAIT,
} from './harness';
import { png } from './media-files';
import { NGINX, NginxFront } from './nginx';
import { bubble, sendText } from './people';
import { TURNSERVER, TurnServer } from '../packages/server/test/turn';

/**
 * Issue 43, the production topology: nginx with deploy/nginx/sparrow.conf terminating TLS (a
 * certificate made for the run) in front of two Sparrow nodes on one fresh PostgreSQL database and
 * one Redis, coturn beside them. Through https://localhost: signing in, two people whose sockets
 * are on different nodes chatting, a picture, a video call relayed by coturn, and one node stopped
 * mid-conversation while the people go on talking through the other.
 */

const missing = [
  !fs.existsSync(NGINX) && `nginx at ${NGINX}`,
  !fs.existsSync(TURNSERVER) && `coturn at ${TURNSERVER}`,
  !process.env.DATABASE_URL && 'DATABASE_URL',
  !process.env.REDIS_URL && 'REDIS_URL',
].filter(Boolean);
if (missing.length && process.env.CI === 'true')
  throw new Error(`CI=true but the topology suite lacks ${missing.join(', ')}`);

/** How long a stopped node drains (not ready, still serving) before it closes. */
const DRAIN_MS = 1_500;

interface Someone {
  id: number;
  token: string;
  name: string;
  account: string;
  page: Page;
}

let database: { url: string; drop: () => Promise<void> };
let dataDir: string;
let turn: TurnServer;
let nodes: [ServerProcess, ServerProcess];
let front: NginxFront;
let browser: Browser;
let alice: Someone;
let bob: Someone;
/** The node Alice's socket is on (0 or 1); Bob's is on the other. */
let aliceNode: number;

/** An empty database of the run's own on the suite's PostgreSQL server. */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  const name = `sparrow_topology_${process.pid}_${randomUUID().slice(0, 8)}`;
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The sockets a node holds bound to a user, from its /metrics (read on loopback). */
async function boundSockets(node: ServerProcess): Promise<number> {
  const text = await (await fetch(`${node.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('sparrow_sockets{state="bound"} '));
  return Number(line?.split(' ')[1]);
}

const bound = () => Promise.all(nodes.map(boundSockets));

/** Every RTCPeerConnection a page makes, for the test to read its state and statistics. */
function recordPeers(): void {
  const Native = window.RTCPeerConnection;
  const made: RTCPeerConnection[] = [];
  (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = made;
  window.RTCPeerConnection = class extends Native {
    constructor(config?: RTCConfiguration) {
      super(config);
      made.push(this);
    }
  };
}

/** What the newest call's connection says: its state, the kinds of media received, its candidate pair. */
function peer(page: Page) {
  return page.evaluate(async () => {
    const pc = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.at(-1);
    if (!pc) return { state: 'none', video: 0, frames: 0, pair: '' };
    type Stat = Record<string, string | number | undefined>;
    const byId = new Map<string, Stat>();
    (await pc.getStats()).forEach((s: Stat) => byId.set(String(s.id), s));
    const stats = [...byId.values()];
    const video = stats.find((s) => s.type === 'inbound-rtp' && s.kind === 'video');
    const transport = stats.find((s) => s.type === 'transport' && s.selectedCandidatePairId);
    const pair = byId.get(String(transport?.selectedCandidatePairId));
    const type = (id: unknown) => String(byId.get(String(id))?.candidateType ?? '');
    return {
      state: pc.connectionState,
      video: Number(video?.bytesReceived ?? 0),
      frames: Number(video?.framesDecoded ?? 0),
      pair: pair ? `${type(pair.localCandidateId)}/${type(pair.remoteCandidateId)}` : '',
    };
  });
}

async function openChat(p: Someone, withId: number): Promise<void> {
  await p.page.goto(`${front.url}/#/pages/message/chat?id=${withId}`);
  await visible(p.page.getByRole('textbox', { name: '输入消息' }));
}

/** Presses a tile of the input bar's "+" panel, opening the panel unless it is open. */
async function plus(page: Page, tile: string): Promise<void> {
  const grid = page.getByRole('group', { name: '更多功能', exact: true });
  if (!(await grid.isVisible())) await page.getByRole('button', { name: '更多功能', exact: true }).click();
  await grid.getByRole('button', { name: tile, exact: true }).click();
}

/** Signs someone in through the front, in a phone-sized browser that records its calls. */
async function person(account: string, name: string): Promise<Someone> {
  const who = await nodes[0].register(account, name);
  const context = await phoneContext(browser);
  await context.addInitScript(recordPeers);
  const page = await context.newPage();
  await signIn(front, page, account);
  return { ...who, account, page };
}

describe.skipIf(missing.length > 0)(
  'production topology: nginx (TLS) → two nodes on PostgreSQL + Redis, coturn',
  () => {
    beforeAll(async () => {
      [database, turn, browser] = await Promise.all([
        freshDatabase(),
        TurnServer.start(),
        // The certificate is the run's own, signed by nobody the browser knows.
        launchBrowser(['--ignore-certificate-errors']),
      ]);
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-topology-'));
      const env = {
        DATABASE_URL: database.url,
        REDIS_URL: process.env.REDIS_URL!,
        REDIS_PREFIX: `sparrow-topology-${randomUUID()}:`,
        // No PUBLIC_URL: the address users reach is what nginx forwards (X-Forwarded-Proto, Host).
        PUBLIC_URL: '',
        TURN_URLS: turn.urls,
        TURN_SECRET: turn.secret,
        // Relay only: a call that connects went through coturn with the credentials the server made.
        ICE_TRANSPORT_POLICY: 'relay',
        SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      };
      // The first node migrates the fresh database; the second starts on it. They share one uploads folder.
      const first = await ServerProcess.start(env, dataDir);
      nodes = [first, await ServerProcess.start(env, dataDir)];
      front = await NginxFront.start([nodes[0].port, nodes[1].port]);
    });

    afterAll(async () => {
      await browser?.close();
      await Promise.all(nodes?.map((n) => n.dispose()) ?? []);
      await front?.stop();
      await turn?.stop();
      await database?.drop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('the front speaks TLS, sends http to https, and the nodes name the address users reached', async () => {
      const plain = await front.plainRequest('/pages?x=1');
      expect(plain.status).toBe(301);
      expect(plain.headers.location).toBe('https://localhost/pages?x=1');
      const health = await front.request('/healthz');
      expect(health.status).toBe(200);
      expect(health.headers['strict-transport-security']).toBe('max-age=31536000');
      // A sign-in code names https and the front's host and port, from the forwarded headers alone.
      const qr = await front.request('/common/Pub/qrLogin', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(JSON.parse(qr.body).data.qrUrl).toMatch(new RegExp(`^https://localhost:${front.port}/`));
      // The page may open its socket at the front's address.
      expect(qr.headers['content-security-policy']).toContain(`wss://localhost:${front.port}`);
    });

    it('two people signed in through it, their sockets on different nodes, chat both ways', async () => {
      alice = await person('alice_topo', 'Alice');
      await expect.poll(async () => (await bound()).reduce((a, b) => a + b), WAIT).toBe(1);
      aliceNode = (await bound()).indexOf(1);
      bob = await person('bob_topo', 'Bob');
      await befriend(nodes[0], alice, bob);
      // nginx takes turns between the nodes per request: Bob's page is loaded again until his socket
      // is on the node Alice's is not.
      for (let attempt = 0; ; attempt++) {
        await expect.poll(async () => (await bound()).reduce((a, b) => a + b), WAIT).toBe(2);
        if ((await bound())[aliceNode] === 1) break;
        if (attempt === 10) throw new Error('Bob’s socket never reached the other node');
        const again = socketBound(bob.page);
        await bob.page.reload();
        await again;
      }
      expect(await bound()).toEqual([1, 1]);
      // The browser speaks HTTP/2 to the front.
      expect(
        await alice.page.evaluate(
          () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol,
        ),
      ).toBe('h2');

      await Promise.all([openChat(alice, bob.id), openChat(bob, alice.id)]);
      await sendText(alice.page, '你好，经过 nginx');
      await visible(bubble(bob.page, '你好，经过 nginx'));
      await sendText(bob.page, '收到，我在另一个节点');
      await visible(bubble(alice.page, '收到，我在另一个节点'));
      // Both nodes answered requests through the front, as its log says.
      const upstreams = new Set(front.accessLog().map((l) => /upstream=(\S+)/.exec(l)?.[1]));
      for (const node of nodes) expect(upstreams).toContain(`127.0.0.1:${node.port}`);
      await shot(alice.page, 'topology-chat-375');
    });

    it('a picture Alice sends is opened by Bob, whose socket is on the other node', async () => {
      const [chooser] = await Promise.all([alice.page.waitForEvent('filechooser'), plus(alice.page, '相册')]);
      await chooser.setFiles([{ name: 'lake.png', mimeType: 'image/png', buffer: png(640, 420, [40, 120, 200]) }]);
      const thumb = bob.page.getByRole('button', { name: '查看图片' }).last();
      await visible(thumb);
      await thumb.click();
      const full = bob.page.getByRole('dialog', { name: '图片预览' }).getByRole('img', { name: '原图' });
      await expect.poll(() => full.evaluate((img: HTMLImageElement) => img.naturalWidth), WAIT).toBe(640);
      await bob.page.keyboard.press('Escape');
      await hidden(bob.page.getByRole('dialog', { name: '图片预览' }));
    });

    it('a video call over https connects through coturn, video flowing both ways', async () => {
      await plus(alice.page, '视频通话');
      const callee = bob.page.locator('main.call-screen');
      await visible(callee.getByRole('heading', { name: 'Alice' }));
      await bob.page.getByRole('button', { name: '接听', exact: true }).click();
      for (const page of [alice.page, bob.page]) {
        await expect.poll(async () => (await peer(page)).state, WAIT).toBe('connected');
        await expect.poll(async () => (await peer(page)).video, WAIT).toBeGreaterThan(0);
        const before = await peer(page);
        await page.waitForTimeout(1_500);
        const after = await peer(page);
        expect(after.video).toBeGreaterThan(before.video);
        expect(after.frames).toBeGreaterThan(before.frames);
        expect(after.pair).toBe('relay/relay');
      }
      await alice.page.getByRole('button', { name: '挂断', exact: true }).click();
      await Promise.all([hidden(alice.page.locator('main.call-screen')), hidden(callee)]);
    });

    it('a node stopped mid-conversation drains, its people move to the other node, and nothing is lost', async () => {
      await Promise.all([openChat(alice, bob.id), openChat(bob, alice.id)]);
      expect(await bound()).toEqual([1, 1]);
      const [stopping, staying] = aliceNode === 0 ? nodes : [nodes[1], nodes[0]];
      const stopped = stopping.stop();
      // While it drains, it tells a load balancer it is not ready and goes on serving.
      await expect.poll(async () => (await fetch(`${stopping.url}/readyz`)).status, WAIT).toBe(503);
      expect(await (await fetch(`${stopping.url}/readyz`)).text()).toContain('server: stopping');
      await sendText(alice.page, '节点要停了');
      await visible(bubble(bob.page, '节点要停了'));
      await stopped;
      // Sent while Alice's socket is looking for a node.
      await sendText(bob.page, '你还在吗');
      await expect.poll(() => boundSockets(staying), WAIT).toBe(2);
      await visible(bubble(alice.page, '你还在吗'));
      await sendText(alice.page, '在，换了节点');
      await visible(bubble(bob.page, '在，换了节点'));

      const said = ['你好，经过 nginx', '收到，我在另一个节点', '节点要停了', '你还在吗', '在，换了节点'];
      for (const page of [alice.page, bob.page])
        for (const text of said) expect(await bubble(page, text).count(), text).toBe(1);
      await shot(bob.page, 'topology-after-failover-375');
    });
  },
);
