import { randomUUID } from 'node:crypto';
import { CHAIN_ENTRIES_MAX, ErrorCodes, TEXT_MESSAGE_MAX, type RouteName } from '@sparrow/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDb } from '../src/db';
import { SessionService } from '../src/modules/auth/session';
import { copyOf } from '../src/modules/im/send/pipeline';
import { createRepos } from '../src/repos';
import { Cluster, describeWithRedis, raiseRateLimits } from './cluster';
import { dbTargets, describeEachDb, serverForSuite, signUp, TestSocket, userRow, type TestServer } from './harness';

interface Person {
  userId: number;
  token: string;
  name: string;
}

interface Chain {
  msg_id: number;
  toContactId: string;
  extends: {
    chain_id: number;
    title: string;
    example?: string;
    entries: Array<{ user_id: number; name: string; text: string }>;
    closed: 0 | 1;
    creator: number;
    rev: number;
  };
}

let k = 0;

describeEachDb('group sign-up chains (接龙)', (target) => {
  let server!: TestServer;
  const calls = serverForSuite(target, (s) => (server = s), { 'chatInfo.sendInterval': '0' });

  async function person(name: string): Promise<Person> {
    const { db, sessions } = server.ctx;
    const account = `${name}${++k}ch`;
    const row = await db.insertInto('users').values(userRow(account)).returning('id').executeTakeFirstOrThrow();
    const session = await sessions.create(row.id, { cid: '', isMobile: false, userAgent: 't', ip: '::1' });
    return { userId: row.id, token: `bearer ${session.token}`, name: account.toUpperCase() };
  }

  const answer = (name: RouteName, body: object, as: Person) => calls.answer(name, body, as);
  const ok = (name: RouteName, body: object, as: Person) => calls.ok(name, body, as);

  /** `owner`'s group of `members`, each befriended first. */
  async function group(owner: Person, members: Person[]): Promise<string> {
    for (const m of members) {
      await ok('friendAdd', { user_id: m.userId }, owner);
      await ok('friendAdd', { user_id: owner.userId }, m);
    }
    const made = await ok('groupAdd', { user_ids: members.slice(0, 20).map((m) => m.userId) }, owner);
    const gid = made.id as string;
    for (let i = 20; i < members.length; i += 20)
      await ok('addGroupUser', { id: gid, user_ids: members.slice(i, i + 20).map((m) => m.userId) }, owner);
    return gid;
  }

  /** Alice's group with Bob and Cat, and a chain Alice started in it. */
  async function scene() {
    const [alice, bob, cat] = [await person('alice'), await person('bob'), await person('cat')];
    const gid = await group(alice, [bob, cat]);
    const started = await ok(
      'chainStart',
      { id: randomUUID(), toContactId: gid, title: '周五聚餐', example: '姓名 + 人数' },
      alice,
    );
    return { alice, bob, cat, gid, msgId: started.msg_id as number, started };
  }

  const join = (as: Person, id: number | string, text: string) => answer('chainJoin', { id, text }, as);
  const lines = (c: Chain) => c.extends.entries.map((e) => `${e.name} ${e.text}`);

  it('starts a chain as a stored message, takes each member’s line in order, pushes every change and closes', async () => {
    const { alice, bob, cat, gid, msgId, started } = await scene();
    expect(started).toMatchObject({
      type: 'chain',
      toContactId: gid,
      extends: { title: '周五聚餐', example: '姓名 + 人数', entries: [], closed: 0, creator: alice.userId },
    });
    expect(started.content).toBe('Sign-up 周五聚餐\n姓名 + 人数');
    const socket = await TestSocket.bound(server, cat.userId, cat.token);

    const first = (await ok('chainJoin', { id: msgId, text: '2 人' }, bob)) as Chain;
    expect(first).toMatchObject({ msg_id: msgId, toContactId: gid });
    expect(lines(first)).toEqual([`${bob.name} 2 人`]);
    const told = await socket.waitFor((f) => f.type === 'chain' && f.data.extends.entries.length === 1);
    expect(told.data).toEqual({ toContactId: gid, msg_id: msgId, extends: first.extends });

    // By the client-made id as well; my own line changes in its place, and the next one follows it.
    await ok('chainJoin', { id: started.id, text: '1 人' }, cat);
    const changed = (await ok('chainJoin', { id: msgId, text: '3 人' }, bob)) as Chain;
    expect(lines(changed)).toEqual([`${bob.name} 3 人`, `${cat.name} 1 人`]);
    await socket.waitFor((f) => f.type === 'chain' && f.data.extends.entries[0]?.text === '3 人');

    // History, sync and chainInfo show the chain as it is now; its content is its text.
    const history = await ok('getMessageList', { toContactId: gid, is_group: 1 }, cat);
    const stored = history.find((m: { msg_id: number }) => m.msg_id === msgId);
    expect(stored.extends).toEqual(changed.extends);
    expect(stored.content).toBe(`Sign-up 周五聚餐\n姓名 + 人数\n1. ${bob.name} 3 人\n2. ${cat.name} 1 人`);
    const synced = await ok('sync', { after_id: msgId - 1 }, alice);
    expect(synced.find((m: { msg_id: number }) => m.msg_id === msgId).extends.entries).toHaveLength(2);
    expect(await ok('chainInfo', { id: msgId }, alice)).toEqual(changed);
    // Its preview and its words are its title's.
    const contacts = await ok('getContacts', {}, cat);
    expect(contacts.find((c: { id: string }) => c.id === gid).lastContent).toBe('[Sign-up] 周五聚餐');
    const found = await ok('searchMessage', { keywords: '聚餐', toContactId: gid, is_group: 1 }, bob);
    expect(found.map((m: { msg_id: number }) => m.msg_id)).toEqual([msgId]);

    // Withdrawing my line moves the later ones up.
    const withdrawn = (await ok('chainWithdraw', { id: msgId }, bob)) as Chain;
    expect(lines(withdrawn)).toEqual([`${cat.name} 1 人`]);
    await ok('chainJoin', { id: msgId, text: 'again' }, bob);

    const closed = (await ok('chainClose', { id: msgId }, alice)) as Chain;
    expect(closed.extends.closed).toBe(1);
    expect(lines(closed)).toEqual([`${cat.name} 1 人`, `${bob.name} again`]);
    await socket.waitFor((f) => f.type === 'chain' && f.data.extends.closed === 1);
    expect((await join(cat, msgId, 'late')).code).toBe(ErrorCodes.ChainClosed);
    expect((await answer('chainWithdraw', { id: msgId }, bob)).code).toBe(ErrorCodes.ChainClosed);
    // Closing again changes nothing.
    expect(await ok('chainClose', { id: msgId }, alice)).toEqual(closed);
    socket.close();
  });

  it('reaches a Raingad socket and its history as a text of the lines, and sends it no chain push', async () => {
    const { alice, bob, cat, gid, msgId } = await scene();
    const socket = await TestSocket.open(server);
    const bound = await server.call(
      'bindUid',
      { client_id: socket.clientId, user_id: cat.userId },
      { token: cat.token },
    );
    expect(bound.code, bound.msg).toBe(0);
    socket.send({ type: 'bindUid', user_id: cat.userId, token: cat.token });
    await socket.waitFor((f) => f.type === 'pong');
    await ok('chainJoin', { id: msgId, text: '带伞' }, bob);
    const next = await ok('chainStart', { id: randomUUID(), toContactId: gid, title: '周六爬山' }, alice);
    const got = await socket.waitFor((f) => f.type === 'group' && f.data.msg_id === next.msg_id);
    expect(got.data).toMatchObject({ type: 'text', extends: {} });
    // The old clients speak Chinese: the text's head in the source language.
    expect(got.data.content).toBe('接龙 周六爬山');
    expect(socket.frames.some((f) => f.type === 'chain')).toBe(false);
    const history = await server.post(
      '/enterprise/im/getMessageList',
      { toContactId: gid, is_group: 1 },
      { authorization: cat.token, 'content-type': 'application/json' },
    );
    const old = history.json.data.find((m: { msg_id: number }) => m.msg_id === msgId);
    expect(old).toMatchObject({ type: 'text', extends: {} });
    expect(old.content).toBe(`接龙 周五聚餐\n姓名 + 人数\n1. ${bob.name} 带伞`);
    socket.close();
  });

  it('answers outsiders, removed members and other messages as a missing chain; refuses the muted; lets only the starter and admins close', async () => {
    const { alice, bob, cat, gid, msgId } = await scene();
    const stranger = await person('sam');
    const missing = await join(stranger, 999_999_999, 'x');
    expect(missing.code).toBe(ErrorCodes.MessageNotFound);
    for (const route of ['chainJoin', 'chainWithdraw', 'chainClose', 'chainInfo'] as const) {
      const got = await answer(route, { id: msgId, text: 'x' }, stranger);
      expect([got.code, got.msg]).toEqual([missing.code, missing.msg]);
    }
    // A member of another group of Alice's is no member of this one.
    const dan = await person('dan');
    await group(alice, [dan, stranger]);
    expect((await join(dan, msgId, 'x')).code).toBe(ErrorCodes.MessageNotFound);
    expect((await answer('chainStart', { id: randomUUID(), toContactId: gid, title: 't' }, dan)).code).toBe(
      ErrorCodes.NotMember,
    );
    // Groups only: a private chat's id is no group, a text is no chain.
    expect((await answer('chainStart', { id: randomUUID(), toContactId: bob.userId, title: 't' }, alice)).code).toBe(
      400,
    );
    const text = await calls.text(alice, gid, 'just a text');
    expect((await join(bob, text.msg_id, 'x')).code).toBe(ErrorCodes.MessageNotFound);

    // Muted (禁言): no line, and no chain started; muted no longer, a line.
    await ok('setNoSpeak', { id: gid, user_id: cat.userId, noSpeakTimer: 1 }, alice);
    expect((await join(cat, msgId, 'muted')).code).toBe(ErrorCodes.Muted);
    expect((await answer('chainStart', { id: randomUUID(), toContactId: gid, title: 't' }, cat)).code).toBe(
      ErrorCodes.Muted,
    );
    server.clock.advance(11 * 60_000);
    await ok('chainJoin', { id: msgId, text: 'free again' }, cat);

    // A block between two members is no matter in their group (as sending there is not).
    await ok('blockAdd', { user_id: bob.userId }, alice);
    await ok('chainJoin', { id: msgId, text: 'blocked by alice' }, bob);

    // An ordinary member closes no chain but their own; an administrator closes any.
    expect((await answer('chainClose', { id: msgId }, bob)).code).toBe(ErrorCodes.Forbidden);
    const own = await ok('chainStart', { id: randomUUID(), toContactId: gid, title: 'bob’s' }, bob);
    expect((await ok('chainClose', { id: own.msg_id }, bob)).extends.closed).toBe(1);
    await ok('setManager', { id: gid, user_id: cat.userId, role: 2 }, alice);
    expect((await ok('chainClose', { id: msgId }, cat)).extends.closed).toBe(1);

    // Removed, Cat is refused as a stranger is.
    const later = await ok('chainStart', { id: randomUUID(), toContactId: gid, title: 'later' }, alice);
    await ok('removeUser', { id: gid, user_id: cat.userId }, alice);
    const gone = await join(cat, later.msg_id, 'x');
    expect([gone.code, gone.msg]).toEqual([missing.code, missing.msg]);
    expect((await answer('chainInfo', { id: later.msg_id }, cat)).code).toBe(ErrorCodes.MessageNotFound);
  });

  it('numbers 20 lines added at once 1..20, each once', async () => {
    const alice = await person('alice');
    const members = await Promise.all(Array.from({ length: 20 }, (_, i) => person(`m${i}`)));
    const gid = await group(alice, members);
    const { msg_id: msgId } = await ok('chainStart', { id: randomUUID(), toContactId: gid, title: 'at once' }, alice);
    const answers = await Promise.all(members.map((m, i) => join(m, msgId, `line ${i}`)));
    expect(answers.map((a) => a.code)).toEqual(members.map(() => 0));
    const chain = (await ok('chainInfo', { id: msgId }, alice)) as Chain;
    expect(chain.extends.entries.map((e) => e.user_id).sort((a, b) => a - b)).toEqual(
      members.map((m) => m.userId).sort((a, b) => a - b),
    );
    const seqs = await server.ctx.db
      .selectFrom('chain_entries')
      .select('seq')
      .where('chain_id', '=', chain.extends.chain_id)
      .orderBy('seq')
      .execute();
    expect(seqs.map((s) => s.seq)).toEqual(members.map((_, i) => i + 1));
    // The stored message says the same.
    const history = await ok('getMessageList', { toContactId: gid, is_group: 1 }, members[0]!);
    expect(history.find((m: { msg_id: number }) => m.msg_id === msgId).extends).toEqual(chain.extends);
  });

  it('stops lines added at once exactly at CHAIN_ENTRIES_MAX', async () => {
    const alice = await person('alice');
    const members = await Promise.all(Array.from({ length: 10 }, (_, i) => person(`c${i}`)));
    const gid = await group(alice, members);
    const { msg_id: msgId } = await ok(
      'chainStart',
      { id: randomUUID(), toContactId: gid, title: 'nearly full' },
      alice,
    );
    const { extends: facts } = (await ok('chainInfo', { id: msgId }, alice)) as Chain;
    // The chain filled by earlier members, up to five lines short of the cap.
    await server.ctx.db
      .insertInto('chain_entries')
      .values(
        Array.from({ length: CHAIN_ENTRIES_MAX - 5 }, (_, i) => ({
          chain_id: facts.chain_id,
          seq: i + 1,
          user_id: 1_000_000 + i,
          name: `earlier ${i}`,
          text: 'x',
          create_time: 1,
        })),
      )
      .execute();
    const answers = await Promise.all(members.map((m) => join(m, msgId, 'me')));
    expect(answers.filter((a) => a.code === 0)).toHaveLength(5);
    expect(answers.filter((a) => a.code === ErrorCodes.ChainFull)).toHaveLength(5);
    const chain = (await ok('chainInfo', { id: msgId }, alice)) as Chain;
    expect(chain.extends.entries).toHaveLength(CHAIN_ENTRIES_MAX);
    // A member with a line still changes it at the cap.
    const inside = members[answers.findIndex((a) => a.code === 0)]!;
    await ok('chainJoin', { id: msgId, text: 'changed' }, inside);
  });

  it('takes no line after its close, whatever the order in which they come', async () => {
    const alice = await person('alice');
    const members = await Promise.all(Array.from({ length: 12 }, (_, i) => person(`r${i}`)));
    const gid = await group(alice, members);
    for (let round = 0; round < 3; round++) {
      const { msg_id: msgId } = await ok(
        'chainStart',
        { id: randomUUID(), toContactId: gid, title: `race ${round}` },
        alice,
      );
      const joins = members.map((m) => join(m, msgId, `r${round}`));
      const closing = answer('chainClose', { id: msgId }, alice);
      const [answers, closed] = await Promise.all([Promise.all(joins), closing]);
      expect(closed.code, closed.msg).toBe(0);
      for (const a of answers) expect([0, ErrorCodes.ChainClosed]).toContain(a.code);
      const accepted = members.filter((_, i) => answers[i]!.code === 0).map((m) => m.userId);
      const final = (await ok('chainInfo', { id: msgId }, alice)) as Chain;
      // The lines at its close are every line it ever took.
      expect(final.extends.entries.map((e) => e.user_id)).toEqual(
        closed.data.extends.entries.map((e: any) => e.user_id),
      );
      expect([...accepted].sort((a, b) => a - b)).toEqual(
        final.extends.entries.map((e) => e.user_id).sort((a, b) => a - b),
      );
    }
  });

  it('never brings a withdrawn chain back, whatever lines race its withdrawal', async () => {
    const alice = await person('alice');
    const members = await Promise.all(Array.from({ length: 8 }, (_, i) => person(`u${i}`)));
    const gid = await group(alice, members);
    for (let round = 0; round < 4; round++) {
      const started = await ok('chainStart', { id: randomUUID(), toContactId: gid, title: `undo ${round}` }, alice);
      await ok('chainJoin', { id: started.msg_id, text: 'first' }, members[0]!);
      const [undone, ...answers] = await Promise.all([
        answer('undoMessage', { id: started.id }, alice),
        ...members.map((m, i) =>
          i % 3 === 0 ? answer('chainWithdraw', { id: started.msg_id }, m) : join(m, started.msg_id, `r${round}`),
        ),
      ]);
      expect(undone.code, undone.msg).toBe(0);
      for (const a of answers) expect([0, ErrorCodes.MessageNotFound]).toContain(a.code);
      const row = await server.ctx.db
        .selectFrom('messages')
        .select(['is_undo', 'extends', 'content'])
        .where('id', '=', started.msg_id)
        .executeTakeFirstOrThrow();
      expect(row.is_undo).toBe(1);
      expect(JSON.parse(row.extends)).toMatchObject({ event: 'undo' });
      expect(row.content).not.toContain(`r${round}`);
      expect((await answer('chainInfo', { id: started.msg_id }, alice)).code).toBe(ErrorCodes.MessageNotFound);
      expect((await join(members[1]!, started.msg_id, 'after')).code).toBe(ErrorCodes.MessageNotFound);
    }
  });

  it('screens a title and example as names and each line as a message: refused, or stored with *** in place', async () => {
    const { alice, bob, gid, msgId } = await scene();
    const { db, sessions } = server.ctx;
    const adminRow = await db
      .insertInto('users')
      .values({ ...userRow(`admin${++k}ch`), role: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const admin = {
      userId: adminRow.id,
      name: 'admin',
      token: `bearer ${(await sessions.create(adminRow.id, { cid: '', isMobile: false, userAgent: 't', ip: '::1' })).token}`,
    };
    const words = { refuse: `禁链${++k}号`, replace: `坏链${k}号`, review: `审链${k}号` };
    for (const action of ['refuse', 'replace', 'review'] as const) {
      const list = await ok('manageKeywordListCreate', { name: `chain-${action}${k}`, action }, admin);
      await ok('manageKeywordAdd', { list_id: list.id, words: words[action] }, admin);
    }
    const start = (title: string, example?: string) =>
      answer('chainStart', { id: randomUUID(), toContactId: gid, title, ...(example && { example }) }, alice);
    expect((await start(`聚餐${words.refuse}`)).code).toBe(ErrorCodes.KeywordRefused);
    expect((await start('聚餐', `例${words.refuse}`)).code).toBe(ErrorCodes.KeywordRefused);
    const replaced = await start(`聚餐${words.replace}`, `例${words.replace}`);
    const stars = '*'.repeat([...words.replace].length);
    expect(replaced.data.extends).toMatchObject({ title: `聚餐${stars}`, example: `例${stars}` });
    for (const word of [words.refuse, words.review])
      expect((await join(bob, msgId, `2 人${word}`)).code).toBe(ErrorCodes.KeywordRefused);
    const line = (await ok('chainJoin', { id: msgId, text: `2 人${words.replace}` }, bob)) as Chain;
    expect(lines(line)).toEqual([`${bob.name} 2 人${stars}`]);
    const stored = await db.selectFrom('messages').select('content').where('id', '=', msgId).executeTakeFirstOrThrow();
    expect(stored.content).not.toContain(words.replace);
  });

  it('answers a retried start, or two at once, with the one message and chain the first made', async () => {
    const { alice, gid } = await scene();
    const id = randomUUID();
    const body = { id, toContactId: gid, title: 'retry' };
    const first = await ok('chainStart', body, alice);
    const again = await ok('chainStart', body, alice);
    expect(again).toMatchObject({ msg_id: first.msg_id, id, extends: first.extends });
    const twin = randomUUID();
    const both = await Promise.all([1, 2, 3].map(() => ok('chainStart', { ...body, id: twin }, alice)));
    expect(new Set(both.map((b) => b.msg_id)).size).toBe(1);
    expect(new Set(both.map((b) => b.extends.chain_id)).size).toBe(1);
    const chains = await server.ctx.db
      .selectFrom('chains')
      .select(['client_id', 'msg_id'])
      .where('creator', '=', alice.userId)
      .where('title', '=', 'retry')
      .execute();
    expect(chains.map((c) => [c.client_id, Number(c.msg_id)]).sort()).toEqual(
      [
        [id, first.msg_id],
        [twin, both[0].msg_id],
      ].sort(),
    );
    // The id of a message of another kind is no chain's.
    const text = await calls.text(alice, gid, 'a text');
    expect((await answer('chainStart', { ...body, id: text.id }, alice)).code).toBe(400);
  });

  it('counts lines against the send rate limit, tells an unchanged line to no one and a burst once', async () => {
    const { bob, cat, msgId } = await scene();
    const socket = await TestSocket.bound(server, cat.userId, cat.token);
    const first = (await ok('chainJoin', { id: msgId, text: 'same' }, bob)) as Chain;
    await socket.waitFor((f) => f.type === 'chain' && f.data.extends.rev === first.extends.rev);
    const same = (await ok('chainJoin', { id: msgId, text: 'same' }, bob)) as Chain;
    expect(same.extends).toEqual(first.extends);
    for (let i = 0; i < 5; i++) await ok('chainJoin', { id: msgId, text: `burst ${i}` }, bob);
    const last = await socket.waitFor((f) => f.type === 'chain' && f.data.extends.entries[0]?.text === 'burst 4');
    expect(last.data.extends.rev).toBe(first.extends.rev + 5);
    const pushes = socket.frames.filter((f) => f.type === 'chain');
    // The first at once, the burst after it in one push (two when a turn fell inside it).
    expect(pushes.length).toBeGreaterThanOrEqual(2);
    expect(pushes.length).toBeLessThanOrEqual(3);
    expect(pushes.some((f) => f.data.extends.rev === first.extends.rev + 1)).toBe(false);
    await server.ctx.config.set('chatInfo.sendInterval', '5');
    try {
      await ok('chainJoin', { id: msgId, text: 'once' }, cat);
      expect((await answer('chainWithdraw', { id: msgId }, cat)).code).toBe(ErrorCodes.SendTooFast);
    } finally {
      await server.ctx.config.set('chatInfo.sendInterval', '0');
    }
    socket.close();
  });

  it('forwards a long chain as a text cut at a line to the longest a text may be', async () => {
    const { alice, bob, msgId } = await scene();
    const { extends: facts } = (await ok('chainInfo', { id: msgId }, alice)) as Chain;
    await server.ctx.db
      .insertInto('chain_entries')
      .values(
        Array.from({ length: CHAIN_ENTRIES_MAX - 1 }, (_, i) => ({
          chain_id: facts.chain_id,
          seq: i + 1,
          user_id: 2_000_000 + i,
          name: `成员${i}`,
          text: '很'.repeat(90),
          create_time: 1,
        })),
      )
      .execute();
    await ok('chainJoin', { id: msgId, text: 'last' }, bob);
    await ok('forwardMessage', { msg_id: msgId, user_ids: [bob.userId] }, alice);
    const history = await ok('getMessageList', { toContactId: alice.userId }, bob);
    const copy = history.at(-1);
    expect(copy.type).toBe('text');
    expect([...new Intl.Segmenter().segment(copy.content)].length).toBeLessThanOrEqual(TEXT_MESSAGE_MAX);
    expect(copy.content).toMatch(/^接龙 周五聚餐\n姓名 \+ 人数\n1\. 成员0 很+\n/);
    expect(copy.content.endsWith('\n…')).toBe(true);
    // The copy itself, as favourites take it too.
    const row = await server.ctx.db
      .selectFrom('messages')
      .selectAll()
      .where('id', '=', msgId)
      .executeTakeFirstOrThrow();
    expect(copyOf(row).content).toBe(copy.content);
  });

  it('takes a deleted account’s lines out of its chains and writes their messages again', async () => {
    const [alice, bob] = [await person('alice'), await person('bob')];
    const account = `dora${++k}ch`;
    const signed = await signUp(server, account);
    const dora: Person = { userId: signed.userId, token: signed.token, name: account };
    const gid = await group(alice, [bob, dora]);
    const { msg_id: msgId } = await ok('chainStart', { id: randomUUID(), toContactId: gid, title: 'erase' }, alice);
    await ok('chainJoin', { id: msgId, text: 'bob' }, bob);
    await ok('chainJoin', { id: msgId, text: 'dora' }, dora);
    await ok('chainJoin', { id: msgId, text: 'alice' }, alice);
    const deleted = await server.call('accountDelete', { password: signed.password }, { token: dora.token });
    expect(deleted.code, deleted.msg).toBe(0);
    const left = await server.ctx.db
      .selectFrom('chain_entries')
      .select('user_id')
      .where('user_id', '=', dora.userId)
      .execute();
    expect(left).toEqual([]);
    const chain = (await ok('chainInfo', { id: msgId }, alice)) as Chain;
    expect(lines(chain)).toEqual([`${bob.name} bob`, `${alice.name} alice`]);
    const stored = await server.ctx.db
      .selectFrom('messages')
      .select(['content', 'extends'])
      .where('id', '=', msgId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.extends)).toEqual(chain.extends);
    expect(stored.content).toBe(`接龙 erase\n1. ${bob.name} bob\n2. ${alice.name} alice`);
  });

  it('takes no start, line or close in a disbanded group', async () => {
    const { alice, bob, gid, msgId } = await scene();
    await ok('chainJoin', { id: msgId, text: 'before' }, bob);
    await ok('removeGroup', { id: gid }, alice);
    const codes = [
      (await answer('chainStart', { id: randomUUID(), toContactId: gid, title: 't' }, alice)).code,
      (await join(bob, msgId, 'after')).code,
      (await answer('chainWithdraw', { id: msgId }, bob)).code,
      (await answer('chainClose', { id: msgId }, alice)).code,
    ];
    expect(codes).toEqual([
      ErrorCodes.GroupDisbanded,
      ErrorCodes.GroupDisbanded,
      ErrorCodes.GroupDisbanded,
      ErrorCodes.GroupDisbanded,
    ]);
    const row = await server.ctx.db
      .selectFrom('messages')
      .select('extends')
      .where('id', '=', msgId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.extends).entries).toHaveLength(1);
  });
});

describeWithRedis('group sign-up chains across two nodes', (redisUrl) => {
  if (!dbTargets().includes('postgres')) return;
  let cluster!: Cluster;
  let people!: Person[];
  let close!: () => Promise<void>;

  beforeAll(async () => {
    cluster = await Cluster.start('postgres', redisUrl, 2);
    const opened = openDb({ databaseUrl: cluster.databaseUrl, dataDir: cluster.dataDir });
    await raiseRateLimits(opened);
    const sessions = new SessionService(createRepos(opened.db, opened.dialect), Date.now);
    people = [];
    for (let i = 0; i < 21; i++) {
      const account = `chainnode${process.pid}x${i}`;
      const row = await opened.db
        .insertInto('users')
        .values(userRow(account))
        .returning('id')
        .executeTakeFirstOrThrow();
      const s = await sessions.create(row.id, { cid: '', isMobile: false, userAgent: 't', ip: '::1' });
      people.push({ userId: row.id, token: `bearer ${s.token}`, name: account.toUpperCase() });
    }
    close = async () => {
      await opened.close();
      await cluster.stop();
    };
  }, 60_000);

  afterAll(async () => {
    await close?.();
  });

  it('numbers 20 lines added at once on two nodes 1..20 and pushes each change to members on both', async () => {
    const [a, b] = cluster.nodes as [Cluster['nodes'][0], Cluster['nodes'][0]];
    const [owner, ...members] = people;
    for (const m of members) {
      await a.call('friendAdd', { user_id: m.userId }, owner!.token);
      await a.call('friendAdd', { user_id: owner!.userId }, m.token);
    }
    const made = await a.call('groupAdd', { user_ids: members.map((m) => m.userId) }, owner!.token);
    expect(made.code, made.msg).toBe(0);
    const gid = made.data.id as string;
    const onA = await TestSocket.bound({ url: a.url }, members[0]!.userId, members[0]!.token);
    const onB = await TestSocket.bound({ url: b.url }, members[1]!.userId, members[1]!.token);
    const started = await a.call(
      'chainStart',
      { id: randomUUID(), toContactId: gid, title: 'two nodes' },
      owner!.token,
    );
    expect(started.code, started.msg).toBe(0);
    const msgId = started.data.msg_id as number;
    await onB.waitFor((f) => f.type === 'group' && f.data.msg_id === msgId, 5000);

    const answers = await Promise.all(
      members.map((m, i) => (i % 2 ? b : a).call('chainJoin', { id: msgId, text: `line ${i}` }, m.token)),
    );
    expect(answers.map((x) => x.code)).toEqual(members.map(() => 0));
    const info = await b.call('chainInfo', { id: msgId }, owner!.token);
    const entries = info.data.extends.entries as Array<{ user_id: number }>;
    expect(entries).toHaveLength(20);
    expect(new Set(entries.map((e) => e.user_id)).size).toBe(20);
    for (const socket of [onA, onB])
      await socket.waitFor(
        (f) => f.type === 'chain' && f.data.msg_id === msgId && f.data.extends.entries.length === 20,
        5000,
      );

    // Closed on one node while lines come on both: none is taken after it.
    const closing = b.call('chainClose', { id: msgId }, owner!.token);
    const late = await Promise.all(
      members.map((m, i) => (i % 2 ? a : b).call('chainWithdraw', { id: msgId }, m.token)),
    );
    const closed = await closing;
    expect(closed.code, closed.msg).toBe(0);
    const after = await a.call('chainInfo', { id: msgId }, owner!.token);
    expect(after.data.extends).toEqual(closed.data.extends);
    expect(late.filter((x) => x.code === 0).length + after.data.extends.entries.length).toBe(20);
    onA.close();
    onB.close();
  }, 60_000);
});
