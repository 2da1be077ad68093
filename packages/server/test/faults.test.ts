import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type OpenedDb } from '../src/db';
import {
  Cluster,
  friendsOf,
  haveRedisServer,
  judge,
  type Node,
  raiseRateLimits,
  RedisServer,
  ReliableClient,
  streamWithFault,
} from './cluster';
import { dbTargets, type DbTarget } from './harness';

/** Messages each of four clients sends. */
const PER_CLIENT = 40;

/**
 * Redis killed and started again under two server processes, in the middle of a stream of sends:
 * pushes are lost while it is gone and clients catch up with `sync`; no message is lost. The
 * cluster runs on a Redis of its own, so that killing it spares the shared one other suites use.
 * (A node killed with SIGKILL and the database's connections killed are in cluster.test.ts.)
 */
const suite = haveRedisServer() ? describe : describe.skip;
suite('Redis killed under two server processes', () => {
  for (const target of dbTargets()) redisFault(target);
});

function redisFault(target: DbTarget) {
  let redis: RedisServer;
  let cluster: Cluster;
  let opened: OpenedDb;
  let clients: ReliableClient[] = [];
  /** Two friends outside the stream, who call while Redis is away. */
  let probe: Array<{ userId: number; token: string }> = [];

  beforeAll(async () => {
    redis = await RedisServer.start();
    cluster = await Cluster.start(target, redis.url, 2);
    const [a, b] = cluster.nodes as [Node, Node];
    const users = await friendsOf(a, 'redisfault', 4);
    probe = await friendsOf(b, 'redisprobe', 2);
    opened = openDb({ databaseUrl: cluster.databaseUrl, dataDir: cluster.dataDir });
    await raiseRateLimits(opened);
    clients = users.map((u, i) => new ReliableClient(i < 2 ? a : b, u.userId, u.token));
    await Promise.all(clients.map((c) => c.connect()));
  }, 90_000);

  afterAll(async () => {
    clients.forEach((c) => c.close());
    await opened?.close();
    await cluster?.stop();
    await redis?.kill('SIGTERM');
  });

  it(`[${target}] loses no message when Redis is killed and started again mid-stream`, async () => {
    await streamWithFault('redis', clients, PER_CLIENT, async () => {
      await redis.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 500));
      // Without Redis the API still answers: limits count per node, the message is stored and
      // its push waits for the receiver's sync.
      const [from, to] = probe as [{ userId: number; token: string }, { userId: number; token: string }];
      const node = cluster.nodes[1]!;
      const sent = await node.call(
        'sendMessage',
        { id: `redis-away-${target}`, toContactId: to.userId, content: 'while Redis is away' },
        from.token,
      );
      expect(sent.code).toBe(0);
      expect((await node.call('getContacts', {}, to.token)).code).toBe(0);
      await new Promise((r) => setTimeout(r, 1000));
      await redis.restart();
    });
    const verdict = await judge(`[${target}] Redis SIGKILL and restart`, opened, 'redis', clients, PER_CLIENT);
    expect(verdict).toMatchObject({ lost: 0, duplicated: 0, outOfOrder: 0, holdingOtherwise: 0 });
  }, 60_000);
}
