import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Cluster, describeWithRedis, friendsOf, type Member, type Node } from './cluster';
import { TestSocket } from './harness';

/** Calls whose parties sit on different nodes: ringing, busy and the end of a vanished peer cross Redis. */
describeWithRedis('calls across two server processes', (redisUrl) => {
  let cluster: Cluster;
  const sockets: TestSocket[] = [];
  beforeAll(async () => {
    cluster = await Cluster.start('sqlite', redisUrl, 2, { CALL_PEER_GONE_MS: '1500', CALL_SWEEP_MS: '250' });
  }, 60_000);
  afterAll(async () => {
    for (const s of sockets) s.close();
    await cluster.stop();
  });

  const bind = async (node: Node, u: Member) => {
    const s = await TestSocket.bound(node, u.userId, u.token);
    sockets.push(s);
    return s;
  };
  const webrtcOf = (s: TestSocket, id: string, event: string, ms = 5000) =>
    s.waitFor((f) => f.type === 'webrtc' && f.data.id === id && f.data.extends.event === event, ms);

  it('rings a callee on the other node, is busy for a third caller there, and ends when the callee vanishes', async () => {
    const a = cluster.nodes[0]!;
    const b = cluster.nodes[1]!;
    const [alice, bob, carol] = await friendsOf(a, `caller${Date.now()}`, 3);
    const sa = await bind(a, alice!);
    const sb = await bind(b, bob!);
    await bind(a, carol!);

    const id = randomUUID();
    const rang = await a.call('sendToMsg', { id, toContactId: bob!.userId, type: 1, event: 'calling' }, alice!.token);
    expect(rang.data.extends.code).toBe(901);
    await webrtcOf(sb, id, 'calling');
    expect((await b.call('sendToMsg', { id, toContactId: alice!.userId, event: 'acceptRtc' }, bob!.token)).code).toBe(
      0,
    );
    await webrtcOf(sa, id, 'acceptRtc');
    await b.call(
      'sendToMsg',
      { id, toContactId: alice!.userId, event: 'iceCandidate', iceCandidate: '{"candidate":""}' },
      bob!.token,
    );
    await webrtcOf(sa, id, 'iceCandidate');

    // Bob's lock lives in Redis: a caller on the other node hears busy.
    const third = await a.call(
      'sendToMsg',
      { id: randomUUID(), toContactId: bob!.userId, event: 'calling' },
      carol!.token,
    );
    expect(third.data.extends).toMatchObject({ event: 'busy', code: 907 });

    sb.close();
    const ended = await webrtcOf(sa, id, 'hangup', 8000);
    expect(ended.data.extends.code).toBe(906);
    const after = await a.call(
      'sendToMsg',
      { id: randomUUID(), toContactId: alice!.userId, event: 'calling' },
      carol!.token,
    );
    expect(after.data.extends.code).toBe(901);
  }, 30_000);
});
