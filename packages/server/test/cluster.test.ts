import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDb, type OpenedDb } from '../src/db';
import {
  Cluster,
  describeWithRedis,
  friendsOf,
  judge,
  raiseRateLimits,
  ReliableClient,
  streamWithFault,
} from './cluster';
import { dbTargets } from './harness';

const TOTAL = 1000;
/** Messages each of four clients sends in a fault scenario. */
const FAULT_PER_CLIENT = 40;
/** What a fault scenario must end with: the database holds every message once, in order, and so does every client. */
const INTACT = { lost: 0, duplicated: 0, outOfOrder: 0, holdingOtherwise: 0 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeWithRedis('two server processes with Redis', (redisUrl) => {
  for (const target of dbTargets()) {
    describe_(target);
  }

  function describe_(target: 'sqlite' | 'postgres') {
    let cluster: Cluster;
    beforeAll(async () => {
      cluster = await Cluster.start(target, redisUrl, 2);
      const opened = openDb({ databaseUrl: cluster.databaseUrl, dataDir: cluster.dataDir });
      try {
        await raiseRateLimits(opened);
      } finally {
        await opened.close();
      }
    }, 60_000);
    afterAll(async () => {
      await cluster.stop();
    });

    it(`[${target}] delivers ${TOTAL} messages exactly once across nodes, socket drops and a restart`, async () => {
      const a = cluster.nodes[0]!;
      const b = cluster.nodes[1]!;
      const users = await friendsOf(a, 'nodeuser', 4);
      const opened = openDb({ databaseUrl: cluster.databaseUrl, dataDir: cluster.dataDir });
      const clients = users.map((u, i) => new ReliableClient(i < 2 ? a : b, u.userId, u.token));
      await Promise.all(clients.map((c) => c.connect()));

      const flaky = clients[1]!;
      let chaos = true;
      const dropper = (async () => {
        while (chaos) {
          await new Promise((r) => setTimeout(r, 120));
          flaky.drop();
        }
      })();

      let sent = 0;
      let restarted = false;
      const perUser = TOTAL / clients.length;
      await Promise.all(
        clients.map(async (c, i) => {
          for (let k = 0; k < perUser; k++) {
            const to = users[(i + 1 + (k % 3)) % users.length]!.userId;
            await c.send(to, `m${i}-${k}`);
            sent += 1;
            if (!restarted && sent >= TOTAL / 2) {
              restarted = true;
              await b.stop();
              await b.start();
            }
          }
        }),
      );
      chaos = false;
      await dropper;
      await new Promise((r) => setTimeout(r, 300));
      await Promise.all(clients.map((c) => c.catchUp()));

      try {
        const rows = await opened.db
          .selectFrom('messages')
          .select(['id', 'from_user', 'to_id', 'client_id'])
          .where('chat_type', '=', 0)
          .orderBy('id')
          .execute();
        expect(rows).toHaveLength(TOTAL);
        expect(new Set(rows.map((r) => `${r.from_user}:${r.client_id}`)).size).toBe(TOTAL);
        for (const c of clients) {
          const expected = rows.filter((r) => r.from_user === c.userId || r.to_id === c.userId).map((r) => r.id);
          const held = [...c.messages.keys()].sort((x, y) => x - y);
          expect(held).toEqual(expected);
        }
        const stable = clients[0]!;
        const toStable = rows.filter((r) => r.to_id === stable.userId && r.from_user >= users[2]!.userId).length;
        expect(toStable).toBeGreaterThan(0);
        expect(stable.pushes).toBeGreaterThanOrEqual(toStable * 0.9);
      } finally {
        await opened.close();
        clients.forEach((c) => c.close());
      }
    }, 180_000);

    it(`[${target}] fans a group message out to its members as they are now, whichever node changed them`, async () => {
      const a = cluster.nodes[0]!;
      const b = cluster.nodes[1]!;
      const users: Array<{ userId: number; token: string }> = [];
      for (const name of ['gowner', 'gsender', 'gleaver']) {
        await a.call('register', { account: `${name}${target}`, password: 'secret123', realname: name });
        const login = await a.call('login', { account: `${name}${target}`, password: 'secret123' });
        users.push({ userId: login.data.userInfo.user_id, token: login.data.authToken });
      }
      const [owner, sender, leaver] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];
      for (const u of [sender, leaver]) {
        await a.call('friendAdd', { user_id: u.userId }, owner.token);
        await a.call('friendAdd', { user_id: owner.userId }, u.token);
      }
      const created = await a.call('groupAdd', { user_ids: [sender.userId, leaver.userId] }, owner.token);
      const gid = created.data.id as string;
      const listener = new ReliableClient(a, leaver.userId, leaver.token);
      await listener.connect();
      // The sender's node keeps the member list between sends; the owner changes it on the other node.
      const say = async (content: string) => {
        const res = await b.call(
          'sendMessage',
          { id: randomUUID(), toContactId: gid, is_group: 1, type: 'text', content },
          sender.token,
        );
        expect(res.code).toBe(0);
        return res.data.msg_id as number;
      };
      const heard = async (msgId: number) => {
        const until = Date.now() + 3000;
        while (!listener.messages.has(msgId) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        return listener.messages.has(msgId);
      };
      try {
        expect(await heard(await say('before'))).toBe(true);
        expect((await a.call('removeUser', { id: gid, user_id: leaver.userId }, owner.token)).code).toBe(0);
        const whileOut = await say('while out');
        await new Promise((r) => setTimeout(r, 500));
        expect(listener.messages.has(whileOut)).toBe(false);
        expect((await a.call('addGroupUser', { id: gid, user_ids: [leaver.userId] }, owner.token)).code).toBe(0);
        expect(await heard(await say('back in'))).toBe(true);
      } finally {
        listener.close();
      }
    }, 60_000);

    it(`[${target}] delivers a wide group's message once to every member, on whichever node they are`, async () => {
      const [a, b] = [cluster.nodes[0]!, cluster.nodes[1]!];
      // More members than a push sent user by user (WIDE_PUSH in realtime/redis.ts): one publish for all.
      const users: Array<{ userId: number; token: string }> = [];
      for (let i = 0; i < 20; i++) {
        const account = `wide${i}${target}`;
        await a.call('register', { account, password: 'secret123', realname: `wide ${i}` });
        const login = await a.call('login', { account, password: 'secret123' });
        users.push({ userId: login.data.userInfo.user_id, token: login.data.authToken });
      }
      const [owner, ...others] = users as [(typeof users)[0], ...typeof users];
      for (const u of others) {
        await a.call('friendAdd', { user_id: u.userId }, owner.token);
        await a.call('friendAdd', { user_id: owner.userId }, u.token);
      }
      const created = await a.call('groupAdd', { user_ids: others.map((u) => u.userId) }, owner.token);
      expect(created.code, created.msg).toBe(0);
      const gid = created.data.id as string;
      // Members split over both nodes; the sender is on b.
      const listeners = others.map((u, i) => new ReliableClient(i % 2 ? a : b, u.userId, u.token));
      await Promise.all(listeners.map((l) => l.connect()));
      await new Promise((r) => setTimeout(r, 300));
      const before = listeners.map((l) => l.pushes);
      try {
        const sent = await b.call(
          'sendMessage',
          { id: randomUUID(), toContactId: gid, is_group: 1, type: 'text', content: 'to everyone' },
          owner.token,
        );
        expect(sent.code, sent.msg).toBe(0);
        const msgId = sent.data.msg_id as number;
        const until = Date.now() + 5000;
        while (listeners.some((l) => !l.messages.has(msgId)) && Date.now() < until)
          await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 300));
        expect(listeners.filter((l) => !l.messages.has(msgId)).map((l) => l.userId)).toEqual([]);
        expect(listeners.map((l, i) => l.pushes - before[i]!)).toEqual(listeners.map(() => 1));
      } finally {
        listeners.forEach((l) => l.close());
      }
    }, 90_000);

    /**
     * Four clients, two on each node, stream while the database's connections are killed three
     * times; then `check` judges what the database and the clients hold.
     */
    async function withConnectionsKilled(
      scenario: string,
      check: (clients: ReliableClient[], opened: OpenedDb) => Promise<void>,
    ): Promise<void> {
      const a = cluster.nodes[0]!;
      const b = cluster.nodes[1]!;
      const users = await friendsOf(a, scenario, 4);
      const clients = users.map((u, i) => new ReliableClient(i < 2 ? a : b, u.userId, u.token));
      await Promise.all(clients.map((c) => c.connect()));
      const opened = openDb({ databaseUrl: cluster.databaseUrl, dataDir: cluster.dataDir });
      const killer = new pg.Client({ connectionString: cluster.databaseUrl });
      await killer.connect();
      try {
        await streamWithFault(scenario, clients, FAULT_PER_CLIENT, async () => {
          for (let i = 0; i < 3; i++) {
            await killer.query(
              'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
            );
            await sleep(300);
          }
        });
        await check(clients, opened);
      } finally {
        await killer.end();
        await opened.close();
        clients.forEach((c) => c.close());
      }
    }

    if (target === 'postgres')
      it(`[${target}] loses nothing when the database's connections are killed mid-stream`, async () => {
        await withConnectionsKilled('pgkill', async (clients, opened) => {
          const verdict = await judge(
            `[${target}] pg_terminate_backend ×3`,
            opened,
            'pgkill',
            clients,
            FAULT_PER_CLIENT,
          );
          expect(verdict).toMatchObject(INTACT);
        });
      }, 60_000);

    if (target === 'postgres')
      it(`[${target}] pushes every acknowledged message to every live receiver when the database's connections are killed mid-stream`, async () => {
        await withConnectionsKilled('pglive', async (clients, opened) => {
          // What each client must hold from pushes alone: every private message to or from it.
          const rows = await opened.db
            .selectFrom('messages')
            .select(['id', 'from_user', 'to_id'])
            .where('chat_type', '=', 0)
            .where(
              'from_user',
              'in',
              clients.map((c) => c.userId),
            )
            .execute();
          const missing = () =>
            clients.flatMap((c) =>
              rows
                .filter((r) => (r.from_user === c.userId || r.to_id === c.userId) && !c.live.has(r.id))
                .map((r) => r.id),
            );
          // A fan-out that failed is made good by the sender's retry at once, or by the sweep.
          const until = Date.now() + 25_000;
          while (missing().length && Date.now() < until) await sleep(200);
          console.log(
            `[${target}] pg_terminate_backend ×3, live sockets: ${rows.length} stored, ${missing().length} not pushed, ` +
              `${clients.reduce((n, c) => n + c.retries, 0)} retries`,
          );
          expect(missing()).toEqual([]);
          expect(clients.map((c) => c.connects)).toEqual(clients.map(() => 1));
        });
      }, 60_000);

    it(`[${target}] loses nothing when a node is killed with SIGKILL mid-stream: its clients retry elsewhere or after its restart`, async () => {
      const a = cluster.nodes[0]!;
      const b = cluster.nodes[1]!;
      const users = await friendsOf(a, 'kill9', 4);
      // Two clients on each node; of those on b, one turns to a when b is gone, one waits for b.
      const clients = users.map((u, i) => new ReliableClient(i < 2 ? a : b, u.userId, u.token, i === 2 ? [a, b] : []));
      await Promise.all(clients.map((c) => c.connect()));
      const opened = openDb({ databaseUrl: cluster.databaseUrl, dataDir: cluster.dataDir });
      try {
        await streamWithFault('kill9', clients, FAULT_PER_CLIENT, async () => {
          await b.kill('SIGKILL');
          await sleep(500);
          await b.start();
        });
        expect(clients[2]!.node).toBe(a);
        const verdict = await judge(`[${target}] SIGKILL of a node`, opened, 'kill9', clients, FAULT_PER_CLIENT);
        expect(verdict).toMatchObject(INTACT);
      } finally {
        // The pool is closed first: on SQLite the suite's connection must not outlive the file.
        await opened.close();
        clients.forEach((c) => c.close());
      }
    }, 90_000);
  }
});
