import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL_OPTIONS_MAX, type Envelope } from '@sparrow/protocol';
import { AdminService } from '../src/modules/admin';
import { Cluster, describeWithRedis } from './cluster';
import {
  describeEachDb,
  makeFriends,
  makeGroup,
  serverForSuite,
  signUp,
  TestSocket,
  type TestServer,
  type TestUser,
} from './harness';

type User = TestUser & { realname: string };

/** The `poll` frames a socket got for a message, and whether any frame of it names a voter. */
const pollFrames = (s: TestSocket, msgId: number) =>
  s.frames.filter((f) => f.type === 'poll' && f.data.msg_id === msgId).map((f) => f.data);

/** Waits for a `poll` push of `msgId` whose counts are `counts`. */
const countsPushed = (s: TestSocket, msgId: number, counts: number[], ms = 4000) =>
  s.waitFor(
    (f) => f.type === 'poll' && f.data.msg_id === msgId && JSON.stringify(f.data.counts) === JSON.stringify(counts),
    ms,
  );

describeEachDb('polls', (target) => {
  let server!: TestServer;
  let n = 0;
  const calls = serverForSuite(target, (s) => (server = s), { 'sysInfo.runMode': '2' });
  const fresh = async (name: string): Promise<User> => {
    const realname = `${name}${++n}`;
    return { ...(await signUp(server, `${realname}p`, 'secret123', realname)), realname };
  };
  const people = async (count: number, name: string) => {
    const out: User[] = [];
    for (let i = 0; i < count; i++) out.push(await fresh(name));
    return out;
  };
  const start = (as: User, gid: string, more: Record<string, unknown> = {}) =>
    calls.answer(
      'createPoll',
      { id: randomUUID(), toContactId: gid, question: '午饭吃什么', options: ['面', '饭', '粥'], ...more },
      as,
    );
  const poll = async (as: User, gid: string, more: Record<string, unknown> = {}) => {
    const res = await start(as, gid, more);
    expect(res.code, res.msg).toBe(0);
    return res.data as { msg_id: number; id: string; type: string; extends: any; content: string };
  };
  const vote = (as: User, id: number | string, options: number[]) => calls.answer('votePoll', { id, options }, as);
  const history = async (as: User, gid: string, msgId: number) => {
    const list = await calls.ok('getMessageList', { toContactId: gid, is_group: 1 }, as);
    return (list as any[]).find((m) => m.msg_id === msgId);
  };

  it('starts a poll; votes, a changed vote and a withdrawal count live for everyone; history shows my own choice', async () => {
    const [a, b, c] = await people(3, 'ann');
    const gid = await makeGroup(server, a!, [b!, c!]);
    const [sa, sb, sc] = await Promise.all([a!, b!, c!].map((u) => TestSocket.bound(server, u.userId, u.token)));

    const made = await poll(a!, gid);
    expect(made).toMatchObject({
      type: 'poll',
      content: '[Poll] 午饭吃什么',
      extends: {
        question: '午饭吃什么',
        options: [
          { text: '面', count: 0 },
          { text: '饭', count: 0 },
          { text: '粥', count: 0 },
        ],
        multiple: 0,
        anonymous: 0,
        deadline: 0,
        closed: 0,
        voters: 0,
        mine: [],
        creator: a!.userId,
      },
    });
    // Everyone, the starter's own socket too, gets the message as any group message.
    for (const s of [sa!, sb!, sc!])
      await s.waitFor((f) => f.type === 'group' && f.data.type === 'poll' && f.data.msg_id === made.msg_id);

    const byB = await vote(b!, made.msg_id, [0]);
    expect(byB.code, byB.msg).toBe(0);
    expect(byB.data).toMatchObject({ counts: [1, 0, 0], voters: 1, mine: [0], closed: 0 });
    for (const s of [sa!, sb!, sc!]) await countsPushed(s, made.msg_id, [1, 0, 0]);
    expect((await vote(c!, made.id, [1])).data).toMatchObject({ counts: [1, 1, 0], voters: 2, mine: [1] });
    // B changes his mind: his earlier choice is replaced.
    expect((await vote(b!, made.msg_id, [2])).data).toMatchObject({ counts: [0, 1, 1], voters: 2, mine: [2] });
    for (const s of [sa!, sb!, sc!]) await countsPushed(s, made.msg_id, [0, 1, 1]);

    const seenByB = await history(b!, gid, made.msg_id);
    expect(seenByB.extends).toMatchObject({ voters: 2, mine: [2] });
    expect(seenByB.extends.options.map((o: any) => o.count)).toEqual([0, 1, 1]);
    expect((await history(c!, gid, made.msg_id)).extends.mine).toEqual([1]);
    expect((await history(a!, gid, made.msg_id)).extends.mine).toEqual([]);

    // C withdraws: an empty choice.
    expect((await vote(c!, made.msg_id, [])).data).toMatchObject({ counts: [0, 0, 1], voters: 1, mine: [] });
    for (const s of [sa!, sb!]) await countsPushed(s, made.msg_id, [0, 0, 1]);
    // The pushes carry counts, never who voted; a voter's own sockets alone are told their `mine`.
    for (const [s, voted] of [
      [sa!, false],
      [sb!, true],
      [sc!, true],
    ] as const)
      for (const { mine, ...data } of pollFrames(s, made.msg_id)) {
        expect(Object.keys(data).sort()).toEqual(['closed', 'counts', 'msg_id', 'poll_id', 'toContactId', 'voters']);
        if (!voted) expect(mine).toBeUndefined();
      }

    // The conversation list's preview and search name the question.
    const found = await calls.ok('searchMessage', { keywords: '午饭', toContactId: gid, is_group: 1 }, b!);
    expect((found as any[]).some((h) => (h.message ?? h).msg_id === made.msg_id || h.msg_id === made.msg_id)).toBe(
      true,
    );
    for (const s of [sa!, sb!, sc!]) s.close();
  });

  it('takes one option on a single-choice poll and several on a multiple one, each an option it has', async () => {
    const [a, b] = await people(2, 'bob');
    const gid = await makeGroup(server, a!, [b!, (await people(1, 'bob'))[0]!]);
    const single = await poll(a!, gid);
    for (const bad of [[0, 1], [3], [0, 0], [POLL_OPTIONS_MAX]])
      expect((await vote(b!, single.msg_id, bad)).code, JSON.stringify(bad)).toBe(400);
    const multi = await poll(a!, gid, { multiple: 1 });
    expect((await vote(b!, multi.msg_id, [2, 0])).data).toMatchObject({ counts: [1, 0, 1], voters: 1, mine: [0, 2] });
    expect((await vote(b!, multi.msg_id, [1])).data).toMatchObject({ counts: [0, 1, 0], voters: 1, mine: [1] });
    // What a poll is made of is checked before anything is stored.
    for (const more of [
      { options: ['only'] },
      { options: ['a', 'a'] },
      { options: Array.from({ length: POLL_OPTIONS_MAX + 1 }, (_, i) => `o${i}`) },
      { question: '  ' },
    ])
      expect((await start(a!, gid, more)).code, JSON.stringify(more)).toBe(400);
    // A retry of the same id answers the poll stored, not a second one.
    const id = randomUUID();
    const body = { id, toContactId: gid, question: 'again?', options: ['y', 'n'] };
    const first = await calls.ok('createPoll', body, a!);
    const again = await calls.ok('createPoll', body, a!);
    expect(again.msg_id).toBe(first.msg_id);
  });

  it('closes: the starter, the owner or an admin may, another member may not; no vote after it or after the deadline', async () => {
    const [owner, admin, starter, m] = await people(4, 'cal');
    const gid = await makeGroup(server, owner!, [admin!, starter!, m!]);
    expect((await calls.answer('setManager', { id: gid, user_id: admin!.userId, role: 2 }, owner!)).code).toBe(0);
    const sm = await TestSocket.bound(server, m!.userId, m!.token);
    const first = await poll(starter!, gid);
    expect((await vote(m!, first.msg_id, [0])).code).toBe(0);
    // Another member, who sees the poll, is refused as lacking the role.
    const other = await calls.answer('closePoll', { id: first.msg_id }, m!);
    expect(other.code).toBe(403);
    const closed = await calls.answer('closePoll', { id: first.msg_id }, starter!);
    expect(closed.code, closed.msg).toBe(0);
    expect(closed.data).toMatchObject({ closed: 1, counts: [1, 0, 0] });
    await sm.waitFor((f) => f.type === 'poll' && f.data.msg_id === first.msg_id && f.data.closed === 1);
    const late = await vote(m!, first.msg_id, [1]);
    expect(late.code).toBe(401);
    expect(late.msg).toBeTruthy();
    expect((await history(m!, gid, first.msg_id)).extends).toMatchObject({ closed: 1, mine: [0] });
    // Closing again changes nothing.
    expect((await calls.answer('closePoll', { id: first.msg_id }, starter!)).data.closed).toBe(1);

    for (const closer of [owner!, admin!]) {
      const p = await poll(starter!, gid);
      expect((await calls.answer('closePoll', { id: p.msg_id }, closer)).code).toBe(0);
    }

    const soon = server.clock.now() + 60_000;
    const timed = await poll(starter!, gid, { deadline: soon });
    expect(timed.extends.deadline).toBe(soon);
    expect((await vote(m!, timed.msg_id, [2])).code).toBe(0);
    server.clock.advance(60_001);
    expect((await vote(m!, timed.msg_id, [1])).code).toBe(401);
    expect((await history(m!, gid, timed.msg_id)).extends.mine).toEqual([2]);
    // A deadline already past, or too far ahead, is refused.
    expect((await start(starter!, gid, { deadline: server.clock.now() - 1 })).code).toBe(400);
    expect((await start(starter!, gid, { deadline: server.clock.now() + 400 * 86_400_000 })).code).toBe(400);
    sm.close();
  });

  it('an anonymous poll never tells who voted: not in answers, pushes or history, not even to its starter or the owner', async () => {
    const [owner, b, c] = await people(3, 'dee');
    const gid = await makeGroup(server, owner!, [b!, c!]);
    const sockets = await Promise.all([owner!, b!, c!].map((u) => TestSocket.bound(server, u.userId, u.token)));
    const anon = await poll(b!, gid, { anonymous: 1 });
    expect(anon.extends.anonymous).toBe(1);
    expect((await vote(c!, anon.msg_id, [1])).code).toBe(0);
    expect((await vote(owner!, anon.msg_id, [1])).code).toBe(0);
    for (const s of sockets) await countsPushed(s, anon.msg_id, [0, 2, 0]);
    for (const as of [b!, owner!, c!]) {
      for (const option of [undefined, 1]) {
        const who = await calls.answer('pollVoters', { id: anon.msg_id, ...(option !== undefined && { option }) }, as);
        expect(who.code).toBe(401);
        expect(JSON.stringify(who)).not.toContain(String(c!.userId));
      }
    }
    const ids = [owner!.userId, c!.userId].map(String);
    const closed = await calls.answer('closePoll', { id: anon.msg_id }, b!);
    const seen = [
      closed,
      await vote(c!, anon.msg_id, [1]),
      await history(b!, gid, anon.msg_id),
      await history(owner!, gid, anon.msg_id),
      ...sockets.flatMap((s) => pollFrames(s, anon.msg_id)),
    ];
    for (const shown of seen) {
      const text = JSON.stringify(shown);
      for (const id of ids) expect(text).not.toMatch(new RegExp(`(user_id|voter)[^,]*\\b${id}\\b`));
    }
    // Only the voter's own choice is told, to the voter alone.
    expect((await history(c!, gid, anon.msg_id)).extends.mine).toEqual([1]);
    expect((await history(b!, gid, anon.msg_id)).extends.mine).toEqual([]);
    for (const s of sockets) s.close();
  });

  it('a report of an anonymous poll keeps it as nobody in particular sees it: no reporter’s choice', async () => {
    const [a, b, root] = await people(3, 'rep');
    await new AdminService(server.ctx.repos, server.ctx.config, server.clock.now).users.setRole(
      `${root!.realname}p`,
      'admin',
    );
    const gid = await makeGroup(server, a!, [b!, (await people(1, 'rep'))[0]!]);
    const anon = await poll(a!, gid, { anonymous: 1 });
    expect((await vote(b!, anon.msg_id, [2])).code).toBe(0);
    const filed = await calls.ok('report', { kind: 'message', id: anon.msg_id, reason: 'spam' }, b!);
    const opened = await calls.ok('manageReportGet', { id: filed.id }, root!);
    const shown = (opened.evidence.messages as any[]).find((m) => m.msg_id === anon.msg_id);
    expect(shown.extends).toMatchObject({ anonymous: 1, voters: 1, mine: [] });
    expect(shown.extends.options.map((o: any) => o.count)).toEqual([0, 0, 1]);
  });

  it('refuses options that read alike once a word in them is starred', async () => {
    const [a, root] = await people(2, 'kw');
    await new AdminService(server.ctx.repos, server.ctx.config, server.clock.now).users.setRole(
      `${root!.realname}p`,
      'admin',
    );
    const k = n;
    const list = await calls.ok('manageKeywordListCreate', { name: `polls${k}`, action: 'replace' }, root!);
    await calls.ok('manageKeywordAdd', { list_id: list.id, words: `坏甲${k}号\n坏乙${k}号` }, root!);
    const gid = await makeGroup(server, a!, [(await people(1, 'kw'))[0]!, (await people(1, 'kw'))[0]!]);
    const alike = await start(a!, gid, { options: [`去坏甲${k}号`, `去坏乙${k}号`] });
    expect(alike.code).toBe(400);
    expect(alike.data).toMatchObject({ fields: ['options'] });
    const starred = await poll(a!, gid, { options: [`去坏甲${k}号`, '不去'] });
    expect(starred.extends.options.map((o: any) => o.text)).toEqual([`去${'*'.repeat(3 + String(k).length)}`, '不去']);
  });

  it('two starts at once under one id store one poll and one message', async () => {
    const [a, b] = await people(2, 'twi');
    const gid = await makeGroup(server, a!, [b!, (await people(1, 'twi'))[0]!]);
    for (let round = 0; round < 3; round++) {
      const body = { id: randomUUID(), toContactId: gid, question: `once ${round}`, options: ['y', 'n'] };
      const answers = await Promise.all([0, 1, 2, 3].map(() => calls.answer('createPoll', body, a!)));
      expect(answers.map((r) => r.code)).toEqual([0, 0, 0, 0]);
      const msgIds = new Set(answers.map((r) => r.data.msg_id));
      const pollIds = new Set(answers.map((r) => r.data.extends.poll_id));
      expect([msgIds.size, pollIds.size]).toEqual([1, 1]);
      const rows = await server.ctx.db
        .selectFrom('polls')
        .select(['id', 'msg_id'])
        .where('creator', '=', a!.userId)
        .where('client_id', '=', body.id)
        .execute();
      expect(rows.map((r) => [Number(r.id), Number(r.msg_id)])).toEqual([[[...pollIds][0], [...msgIds][0]]]);
      const list = await calls.ok('getMessageList', { toContactId: gid, is_group: 1 }, b!);
      expect((list as any[]).filter((m) => m.type === 'poll' && m.extends.question === body.question)).toHaveLength(1);
      expect((await vote(b!, [...msgIds][0]!, [1])).data).toMatchObject({ counts: [0, 1], voters: 1 });
    }
  });

  it('my vote reaches my other devices with my choice at once; no one else’s push carries it', async () => {
    const [a, b] = await people(2, 'mia');
    const gid = await makeGroup(server, a!, [b!, (await people(1, 'mia'))[0]!]);
    const p = await poll(a!, gid);
    const here = await TestSocket.bound(server, b!.userId, b!.token);
    const there = await TestSocket.bound(server, b!.userId, b!.token);
    const other = await TestSocket.bound(server, a!.userId, a!.token);
    const res = await server.post(
      '/enterprise/im/votePoll',
      { id: p.msg_id, options: [1] },
      { authorization: b!.token, clientid: here.clientId },
    );
    expect(res.json.code, res.json.msg).toBe(0);
    const told = await there.waitFor((f) => f.type === 'poll' && f.data.msg_id === p.msg_id && 'mine' in f.data);
    expect(told.data).toMatchObject({ counts: [0, 1, 0], voters: 1, mine: [1] });
    for (const s of [here, other]) await countsPushed(s, p.msg_id, [0, 1, 0]);
    expect(pollFrames(here, p.msg_id).some((f) => 'mine' in f)).toBe(false);
    expect(pollFrames(other, p.msg_id).some((f) => 'mine' in f)).toBe(false);
    for (const s of [here, there, other]) s.close();
  });

  it('a poll forwarded in a merged record is kept there as the text of its question and options', async () => {
    const [a, b] = await people(2, 'fwd');
    const gid = await makeGroup(server, a!, [b!, (await people(1, 'fwd'))[0]!]);
    const p = await poll(a!, gid, { question: '周末', options: ['爬山', '看海'] });
    await calls.ok('forwardMessages', { msg_ids: [p.msg_id], user_ids: [gid], mode: 'merge' }, a!);
    const list = await calls.ok('getMessageList', { toContactId: gid, is_group: 1 }, b!);
    const record = (list as any[]).find((m) => m.type === 'record');
    const opened = await calls.ok('forwardRecord', { msg_id: record.msg_id }, b!);
    expect(opened.items).toHaveLength(1);
    expect(opened.items[0]).toMatchObject({ type: 'text', extends: {} });
    expect(opened.items[0].content.split('\n').slice(1)).toEqual(['1. 爬山', '2. 看海']);
  });

  it('a message deleted for good takes its poll and every vote with it, votes arriving meanwhile too', async () => {
    const [a, ...others] = await people(7, 'ret');
    const gid = await makeGroup(server, a!, others);
    const p = await poll(a!, gid);
    const row = await server.ctx.db
      .selectFrom('messages')
      .selectAll()
      .where('id', '=', p.msg_id)
      .executeTakeFirstOrThrow();
    const aged = { ...row, id: Number(row.id), from_user: Number(row.from_user), file_id: 0 } as any;
    const [deleted] = await Promise.all([
      server.ctx.repos.retention.deleteMessages([aged]),
      ...others.map((m, i) => vote(m, p.msg_id, [i % 3])),
    ]);
    expect(deleted).toBe(1);
    const polls = await server.ctx.db.selectFrom('polls').select('id').where('msg_id', '=', p.msg_id).execute();
    const votes = await server.ctx.db
      .selectFrom('poll_votes')
      .select('user_id')
      .where('poll_id', '=', p.extends.poll_id)
      .execute();
    expect([polls.length, votes.length]).toEqual([0, 0]);
  });

  it('a named poll lists each option’s voters, named as the reader sees them', async () => {
    const [a, b, c] = await people(3, 'eli');
    const gid = await makeGroup(server, a!, [b!, c!]);
    const p = await poll(a!, gid, { multiple: 1 });
    expect((await vote(b!, p.msg_id, [0, 2])).code).toBe(0);
    expect((await vote(c!, p.msg_id, [2])).code).toBe(0);
    const all = await calls.ok('pollVoters', { id: p.msg_id }, c!);
    expect((all as any[]).map((v) => [v.option, v.user_id, v.name])).toEqual([
      [0, b!.userId, b!.realname],
      [2, b!.userId, b!.realname],
      [2, c!.userId, c!.realname],
    ]);
    const two = await calls.ok('pollVoters', { id: p.msg_id, option: 2 }, a!);
    expect((two as any[]).map((v) => v.user_id)).toEqual([b!.userId, c!.userId]);
  });

  it('refuses strangers, removed and muted members alike; a block between members changes nothing of a group poll', async () => {
    const [owner, b, c, removed] = await people(4, 'fin');
    const stranger = (await people(1, 'fin'))[0]!;
    const gid = await makeGroup(server, owner!, [b!, c!, removed!]);
    const p = await poll(owner!, gid);
    expect((await calls.answer('removeUser', { id: gid, user_id: removed!.userId }, owner!)).code).toBe(0);
    for (const outsider of [stranger, removed!]) {
      expect((await vote(outsider, p.msg_id, [0])).code).toBe(404);
      expect((await calls.answer('closePoll', { id: p.msg_id }, outsider)).code).toBe(404);
      expect((await calls.answer('pollVoters', { id: p.msg_id }, outsider)).code).toBe(404);
      expect((await start(outsider, gid)).code).toBe(403);
    }
    // A poll id that does not exist reads as one I may not see.
    expect((await vote(b!, 999_999_999, [0])).code).toBe(404);
    // A message that is no poll is answered as a missing poll.
    const text = await calls.text(b!, gid, 'not a poll');
    expect((await vote(c!, text.msg_id, [0])).code).toBe(404);

    expect((await calls.answer('setNoSpeak', { id: gid, user_id: c!.userId, noSpeakTimer: 1 }, owner!)).code).toBe(0);
    const muted = await vote(c!, p.msg_id, [0]);
    expect(muted.code).toBe(401);
    expect((await start(c!, gid)).code).toBe(401);

    // Only group polls: a private chat takes none.
    await makeFriends(server, b!, stranger);
    expect((await start(b!, String(stranger.userId) as any)).code).toBe(400);

    // The starter blocked B: B is a member still, and his vote counts as anyone's.
    expect((await calls.answer('blockAdd', { user_id: b!.userId }, owner!)).code).toBe(0);
    expect((await vote(b!, p.msg_id, [1])).data).toMatchObject({ counts: [0, 1, 0], voters: 1 });
  });

  it('a Raingad 6.x socket gets the poll as a text of its question and options, and no counts pushed', async () => {
    const [a, b] = await people(2, 'gil');
    const gid = await makeGroup(server, a!, [b!, (await people(1, 'gil'))[0]!]);
    const old = await TestSocket.open(server);
    const bound = await server.post(
      '/common/Pub/bindUid',
      { client_id: old.clientId, user_id: b!.userId },
      { authorization: b!.token },
    );
    expect(bound.json.code, bound.json.msg).toBe(0);
    old.send({ type: 'bindUid', user_id: b!.userId, token: b!.token });
    await old.waitFor((f) => f.type === 'pong');
    const modern = await TestSocket.bound(server, a!.userId, a!.token);
    const p = await poll(a!, gid, { question: '去哪', options: ['山', '海'] });
    const got = await old.waitFor((f) => f.type === 'group' && f.data.msg_id === p.msg_id);
    expect(got.data).toMatchObject({ type: 'text', content: '投票 去哪\n1. 山 (0)\n2. 海 (0)', extends: {} });
    expect((await vote(a!, p.msg_id, [1])).code).toBe(0);
    // The push went out (a Sparrow socket has it); a message sent after it reaches the old socket after it would have.
    await countsPushed(modern, p.msg_id, [0, 1]);
    const sentinel = await calls.text(a!, gid, 'after the push');
    await old.waitFor((f) => f.type === 'group' && f.data.msg_id === sentinel.msg_id);
    expect(old.frames.filter((f) => f.type === 'poll')).toEqual([]);
    modern.close();
    // Over HTTP too: a client that does not name itself Sparrow's reads the text, with the counts as they stand.
    const res = await server.post(
      '/enterprise/im/getMessageList',
      { toContactId: gid, is_group: 1 },
      { authorization: b!.token },
    );
    const shown = (res.json.data as any[]).find((m) => m.msg_id === p.msg_id);
    expect(shown).toMatchObject({ type: 'text', content: '投票 去哪\n1. 山 (0)\n2. 海 (1)' });
    old.close();
  });

  describe('at once', () => {
    let owner!: User;
    let members: User[] = [];
    let gid = '';
    beforeAll(async () => {
      owner = await fresh('hal');
      members = await people(30, 'hal');
      gid = await makeGroup(server, owner, members);
    });

    it('30 members voting at once are all counted, pushed as few frames', async () => {
      const so = await TestSocket.bound(server, owner.userId, owner.token);
      const p = await poll(owner, gid);
      const answers = await Promise.all(members.map((m, i) => vote(m, p.msg_id, [i % 3])));
      expect(answers.map((r) => r.code)).toEqual(members.map(() => 0));
      await countsPushed(so, p.msg_id, [10, 10, 10]);
      // Coalesced: far fewer pushes than votes.
      expect(pollFrames(so, p.msg_id).length).toBeLessThan(10);
      const seen = await history(owner, gid, p.msg_id);
      expect(seen.extends.voters).toBe(30);
      so.close();
    });

    it('one member voting several times at once ends with one vote', async () => {
      const p = await poll(owner, gid);
      const m = members[0]!;
      const answers = await Promise.all([0, 1, 2, 0, 1, 2, 0, 1].map((o) => vote(m, p.msg_id, [o])));
      expect(answers.every((r) => r.code === 0)).toBe(true);
      const seen = await history(m, gid, p.msg_id);
      expect(seen.extends.voters).toBe(1);
      expect(seen.extends.mine).toHaveLength(1);
      expect(seen.extends.options.reduce((s: number, o: any) => s + o.count, 0)).toBe(1);
    });

    it('a close racing votes: every vote answered 0 counts, none after the close', async () => {
      for (let round = 0; round < 3; round++) {
        const p = await poll(owner, gid);
        const votes = members.slice(0, 12).map((m) => vote(m, p.msg_id, [1]));
        const close = calls.answer('closePoll', { id: p.msg_id }, owner);
        const [closed, ...answers] = await Promise.all([close, ...votes]);
        expect(closed.code).toBe(0);
        const taken = answers.filter((r) => r.code === 0).length;
        expect(answers.every((r) => r.code === 0 || r.code === 401)).toBe(true);
        const final = (await history(owner, gid, p.msg_id)).extends;
        expect(final.voters).toBe(taken);
        // What the close answered is what stays: no vote committed after it.
        expect(closed.data.counts).toEqual(final.options.map((o: any) => o.count));
      }
    });
  });
});

describeWithRedis('polls across two servers', (redisUrl) => {
  if (!process.env.DATABASE_URL) return void it.skip('needs PostgreSQL (DATABASE_URL)', () => undefined);
  let cluster!: Cluster;
  beforeAll(async () => {
    cluster = await Cluster.start('postgres', redisUrl, 2, { SEND_PER_MINUTE: '0' });
  }, 60_000);
  afterAll(async () => cluster?.stop());

  const ok = async (
    node: number,
    name: Parameters<Cluster['nodes'][number]['call']>[0],
    body: object,
    token: string,
  ) => {
    const res: Envelope<any> = await cluster.nodes[node]!.call(name, body, token);
    expect(res.code, `${name}: ${res.msg}`).toBe(0);
    return res.data;
  };
  let k = 0;
  const user = async () => {
    const account = `poll${Date.now()}x${++k}`;
    const reg = await cluster.nodes[0]!.call('register', { account, password: 'secret123', realname: account });
    expect(reg.code, reg.msg).toBe(0);
    const login = await cluster.nodes[0]!.call('login', { account, password: 'secret123' });
    expect(login.code, login.msg).toBe(0);
    return { userId: login.data.userInfo.user_id as number, token: login.data.authToken as string };
  };

  it('counts reach members on both servers; votes and a close split across them never count a vote after the close', async () => {
    const owner = await user();
    const members: Array<{ userId: number; token: string }> = [];
    for (let i = 0; i < 16; i++) members.push(await user());
    for (const m of members) {
      await ok(0, 'friendAdd', { user_id: m.userId }, owner.token);
      await ok(1, 'friendAdd', { user_id: owner.userId }, m.token);
    }
    const group = await ok(0, 'groupAdd', { user_ids: members.map((m) => m.userId) }, owner.token);
    const gid = group.id as string;
    const s0 = await TestSocket.bound({ url: cluster.nodes[0]!.url }, members[0]!.userId, members[0]!.token);
    const s1 = await TestSocket.bound({ url: cluster.nodes[1]!.url }, members[1]!.userId, members[1]!.token);

    const p = await ok(
      0,
      'createPoll',
      { id: randomUUID(), toContactId: gid, question: 'q', options: ['a', 'b'] },
      owner.token,
    );
    const answers = await Promise.all(
      members.map((m, i) => cluster.nodes[i % 2]!.call('votePoll', { id: p.msg_id, options: [i % 2] }, m.token)),
    );
    expect(answers.map((r) => r.code)).toEqual(members.map(() => 0));
    for (const s of [s0, s1]) await countsPushed(s, p.msg_id, [8, 8], 6000);

    for (let round = 0; round < 3; round++) {
      const q = await ok(
        0,
        'createPoll',
        { id: randomUUID(), toContactId: gid, question: `r${round}`, options: ['a', 'b'] },
        owner.token,
      );
      const racing = members.map((m, i) =>
        cluster.nodes[i % 2]!.call('votePoll', { id: q.msg_id, options: [0] }, m.token),
      );
      const [closed, ...votes] = await Promise.all([
        cluster.nodes[round % 2]!.call('closePoll', { id: q.msg_id }, owner.token),
        ...racing,
      ]);
      expect(closed.code, closed.msg).toBe(0);
      expect(votes.every((r) => r.code === 0 || r.code === 401)).toBe(true);
      const taken = votes.filter((r) => r.code === 0).length;
      // Asked again on the other server, after every call has answered: the counts as they stay.
      const final = await ok(1, 'closePoll', { id: q.msg_id }, owner.token);
      expect(final.voters).toBe(taken);
      expect(final.counts).toEqual([taken, 0]);
      expect(closed.data.counts).toEqual([taken, 0]);
    }
    s0.close();
    s1.close();
  }, 60_000);
});
