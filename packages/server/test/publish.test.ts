import { afterEach, beforeEach, expect, it } from 'vitest';
import { groupKey } from '../src/modules/group';
import { pairKey } from '../src/modules/im/repo';
import { MemberLists } from '../src/modules/im/send/members';
import { Outbox, PUBLISH_GRACE_MS } from '../src/modules/im/send/outbox';
import { storeMessage } from '../src/modules/im/send/store';
import { describeEachDb, openTestDb, signUp, startServer, TestSocket, userRow, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>>;

/**
 * A message the server acknowledged always reaches its chat: a fan-out that never ran to its end
 * (it threw, or the process died right after the commit) is made good by the sender's retry, and
 * without one by the sweep every node runs.
 */
describeEachDb('stored and pushed', (target) => {
  let server: TestServer;
  let ann: User;
  let bea: User;
  let beaSocket: TestSocket;

  beforeEach(async () => {
    server = await startServer(target);
    ann = await signUp(server, 'anna');
    bea = await signUp(server, 'bea1');
    await server.call('friendAdd', { user_id: bea.userId }, { token: ann.token });
    await server.call('friendAdd', { user_id: ann.userId }, { token: bea.token });
    beaSocket = await TestSocket.bound(server, bea.userId, bea.token);
  });

  afterEach(async () => {
    beaSocket?.close();
    await server?.close();
  });

  /** What a process that died between the commit and the fan-out leaves: the message stored, never pushed. */
  async function storedOnly(clientId: string, content: string, chat?: { groupId: number }) {
    const { ctx } = server;
    const sender = (await ctx.repos.users.byId(ann.userId))!;
    const resolved = chat
      ? await ctx.access.requireMember(ann.userId, chat.groupId).then(({ group, member }) => ({
          kind: 'group' as const,
          chatKey: groupKey(group.id),
          group,
          member,
        }))
      : {
          kind: 'private' as const,
          chatKey: pairKey(ann.userId, bea.userId),
          peer: (await ctx.repos.users.byId(bea.userId))!,
        };
    const draft = { clientId, type: 'text', content, extends: {}, at: [], pid: 0, fileId: 0 };
    const stored = await storeMessage(ctx, new MemberLists(ctx.repos), new Outbox(ctx), sender.id, resolved, draft);
    return stored.row;
  }

  const outboxRows = () => server.ctx.db.selectFrom('message_outbox').selectAll().execute();

  it(`[${target}] a retry of a message whose fan-out never ran pushes it to the receiver`, async () => {
    const row = await storedOnly('retry-after-crash', 'stored, not pushed');
    const retry = await server.call(
      'sendMessage',
      { id: 'retry-after-crash', toContactId: bea.userId, type: 'text', content: 'stored, not pushed' },
      { token: ann.token },
    );
    expect(retry.code).toBe(0);
    expect(retry.data.msg_id).toBe(row.id);
    await beaSocket.waitFor((f) => f.type === 'simple' && f.data.msg_id === row.id);
    await server.services.pipeline.settle();
    expect(await outboxRows()).toEqual([]);
    // Pushed once: a second retry answers the stored message and pushes nothing more.
    const frames = beaSocket.frames.length;
    const again = await server.call(
      'sendMessage',
      { id: 'retry-after-crash', toContactId: bea.userId, type: 'text', content: 'stored, not pushed' },
      { token: ann.token },
    );
    expect(again.data.msg_id).toBe(row.id);
    await beaSocket.roundTrip();
    expect(beaSocket.frames.slice(frames).filter((f) => f.type === 'simple')).toEqual([]);
  });

  it(`[${target}] the sweep pushes a stored message no retry came for, once its grace is over`, async () => {
    const row = await storedOnly('no-retry', 'the sender went away');
    // Within the grace the fan-out may still be under way: the sweep leaves it.
    expect(await server.services.pipeline.sweepUnpublished()).toBe(0);
    server.clock.advance(PUBLISH_GRACE_MS);
    expect(await server.services.pipeline.sweepUnpublished()).toBe(1);
    await beaSocket.waitFor(
      (f) => f.type === 'simple' && f.data.msg_id === row.id && f.data.content === 'the sender went away',
    );
    expect(await outboxRows()).toEqual([]);
    expect(await server.services.pipeline.sweepUnpublished()).toBe(0);
  });

  it(`[${target}] the sweep leaves a message deleted in the meantime, and forgets it`, async () => {
    const row = await storedOnly('deleted-before-sweep', 'taken back');
    // Deleted by its sender before any push: the deletion told the chat already.
    expect(await server.ctx.repos.messages.deleteForAll(row.id)).toBe(true);
    server.clock.advance(PUBLISH_GRACE_MS);
    await server.services.pipeline.sweepUnpublished();
    await beaSocket.roundTrip();
    expect(beaSocket.frames.filter((f) => f.type === 'simple' && f.data.msg_id === row.id)).toEqual([]);
    expect(await outboxRows()).toEqual([]);
  });

  it(`[${target}] the sweep pushes a group message to the members`, async () => {
    const cai = await signUp(server, 'cai1');
    await server.call('friendAdd', { user_id: cai.userId }, { token: ann.token });
    await server.call('friendAdd', { user_id: ann.userId }, { token: cai.token });
    const made = await server.call('groupAdd', { user_ids: [bea.userId, cai.userId] }, { token: ann.token });
    expect(made.code, made.msg).toBe(0);
    const groupId = Number(String(made.data.id).replace('group-', ''));
    // The lines that tell of the new group have been pushed, and so are off the outbox.
    await beaSocket.waitFor((f) => f.type === 'group' && f.data.type === 'event');
    await server.services.pipeline.settle();
    expect(await outboxRows()).toEqual([]);
    const row = await storedOnly('group-no-retry', 'to the group', { groupId });
    server.clock.advance(PUBLISH_GRACE_MS);
    expect(await server.services.pipeline.sweepUnpublished()).toBe(1);
    await beaSocket.waitFor((f) => f.type === 'group' && f.data.msg_id === row.id);
  });

  it(`[${target}] a message whose fan-out ran leaves nothing for the sweep`, async () => {
    const sent = await server.call(
      'sendMessage',
      { id: 'plain-message', toContactId: bea.userId, type: 'text', content: 'hello' },
      { token: ann.token },
    );
    expect(sent.code).toBe(0);
    await beaSocket.waitFor((f) => f.type === 'simple' && f.data.msg_id === sent.data.msg_id);
    await server.services.pipeline.settle();
    expect(await outboxRows()).toEqual([]);
    server.clock.advance(PUBLISH_GRACE_MS);
    expect(await server.services.pipeline.sweepUnpublished()).toBe(0);
  });
});

describeEachDb('the outbox across sweeps', (target) => {
  it(`[${target}] two sweeps at once claim each overdue message once`, async () => {
    const { opened, close } = await openTestDb(target);
    try {
      const { MessageStoreRepo } = await import('../src/modules/im/store-repo');
      const repo = new MessageStoreRepo(opened.db, opened.dialect);
      const [a, b] = await opened.db
        .insertInto('users')
        .values([userRow('ann'), userRow('bea')])
        .returning('id')
        .execute();
      const ids: number[] = [];
      for (let i = 0; i < 30; i++) {
        const stored = await repo.store(
          {
            client_id: `c${i}`,
            from_user: a!.id,
            chat_type: 0,
            to_id: b!.id,
            chat_key: pairKey(a!.id, b!.id),
            type: 'text',
            content: `m${i}`,
            extends: '{}',
            at: '',
            pid: 0,
            file_id: 0,
            is_undo: 0,
            is_deleted: 0,
            create_time: 1,
          },
          [],
          100,
        );
        ids.push(stored.row.id);
      }
      expect(await repo.claimOverdue(99, 10_000, 100)).toEqual([]);
      const [one, two] = await Promise.all([repo.claimOverdue(100, 10_000, 20), repo.claimOverdue(100, 10_000, 20)]);
      const claimed = [...one!, ...two!].map((r) => r.id).sort((x, y) => x - y);
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed).toEqual(ids);
      // Leased: no sweep takes them again until the lease is over.
      expect(await repo.claimOverdue(9_999, 20_000, 100)).toEqual([]);
      expect((await repo.claimOverdue(10_000, 20_000, 100)).length).toBe(30);
    } finally {
      await close();
    }
  });
});
