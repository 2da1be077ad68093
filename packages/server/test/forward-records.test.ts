import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { ErrorCodes, FORWARD_RECORD_MAX, RATE_LIMITS } from '@sparrow/protocol';
import { expect, it } from 'vitest';
import { describeEachDb, makeFriends, makeGroup, serverForSuite, signUp, TestSocket, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>> & { lang: string };

/** Every call says it reads Chinese (the source locale): the server words records in the caller's language. */
const ZH = 'zh-Hans';

describeEachDb('multi-select forward and merged records', (target) => {
  let server!: TestServer;
  let n = 0;
  const fresh = async (name: string): Promise<User> => ({
    ...(await signUp(server, `${name}${++n}fr`, 'secret123', `${name}${n}`, { lang: ZH })),
    lang: ZH,
  });

  serverForSuite(target, (s) => (server = s), {
    'sysInfo.runMode': '2',
    'chatInfo.simpleChat': '1',
    'chatInfo.sendInterval': '0',
    'fileUpload.size': '50',
  });
  const send = async (from: User, to: number | string, content: string) => {
    const res = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: to, is_group: typeof to === 'string' ? 1 : 0, type: 'text', content },
      { token: from.token, lang: ZH },
    );
    expect(res.code, res.msg).toBe(0);
    return res.data.msg_id as number;
  };
  const sendImage = async (from: User, to: number | string, color: string) => {
    const pic = await sharp({ create: { width: 40, height: 30, channels: 3, background: color } })
      .png()
      .toBuffer();
    const up = await server.upload(
      'uploadFile',
      { name: 'pic.png', bytes: pic },
      {
        token: from.token,
        lang: ZH,
        fields: { message: JSON.stringify({ id: randomUUID(), toContactId: to, type: 'image', content: '' }) },
      },
    );
    expect(up.json.code, up.json.msg).toBe(0);
    return up.json.data as { msg_id: number; content: string; extends: { thumb: string } };
  };
  const list = async (u: User, to: number | string) =>
    (
      await server.call(
        'getMessageList',
        { toContactId: to, is_group: typeof to === 'string' ? 1 : 0, limit: 50 },
        { token: u.token, lang: ZH },
      )
    ).data as any[];
  const forward = (u: User, body: Record<string, unknown>) =>
    server.call('forwardMessages', body, { token: u.token, lang: ZH });
  const record = (u: User, body: Record<string, unknown>) =>
    server.call('forwardRecord', body, { token: u.token, lang: ZH });

  it('forwards each message on its own, in order, then the note, to every chat', async () => {
    const [a, b, c, d] = [await fresh('amy'), await fresh('ben'), await fresh('cat'), await fresh('dan')];
    await makeFriends(server, a, b);
    await makeFriends(server, a, c);
    const gid = await makeGroup(server, a, [d, await fresh('dot')]);
    const one = await send(b, a.userId, 'first');
    const pic = await sendImage(a, b.userId, '#335577');
    const three = await send(a, b.userId, 'third');
    const sc = await TestSocket.bound(server, c.userId, c.token);
    const res = await forward(a, {
      msg_ids: [three, one, pic.msg_id],
      user_ids: [c.userId, gid],
      mode: 'each',
      note: 'look at these',
    });
    expect(res.code, res.msg).toBe(0);
    for (const [reader, chat] of [
      [c, a.userId],
      [d, gid],
    ] as const) {
      const got = (await list(reader, chat)).filter((m) => m.type !== 'event');
      expect(got.map((m) => [m.type, m.type === 'image' ? '' : m.content])).toEqual([
        ['text', 'first'],
        ['image', ''],
        ['text', 'third'],
        ['text', 'look at these'],
      ]);
      expect(got.every((m) => m.fromUser.id === a.userId)).toBe(true);
      expect(got[1].content).toBe(pic.content);
    }
    await sc.waitFor((f) => f.type === 'simple' && f.data.content === 'look at these');
    sc.close();
  });

  it('merges messages into one record card, which its receiver opens, and finds it by its title', async () => {
    const [a, b, c] = [await fresh('eve'), await fresh('fay'), await fresh('gus')];
    await makeFriends(server, a, b);
    await makeFriends(server, a, c);
    const one = await send(a, b.userId, 'hello there');
    const pic = await sendImage(b, a.userId, '#aa3355');
    const three = await send(a, b.userId, 'see you');
    const sc = await TestSocket.bound(server, c.userId, c.token);
    const res = await forward(a, {
      msg_ids: [one, pic.msg_id, three],
      user_ids: [c.userId],
      mode: 'merge',
      note: '看看',
    });
    expect(res.code, res.msg).toBe(0);
    const pushed = await sc.waitFor((f) => f.type === 'simple' && f.data.type === 'record');
    const title = `${a.account.replace(/fr$/, '')}和${b.account.replace(/fr$/, '')}的聊天记录`;
    expect(pushed.data).toMatchObject({
      type: 'record',
      content: `[聊天记录] ${title}`,
      extends: {
        title,
        count: 3,
        source: 'private',
        lines: [
          `${a.account.replace(/fr$/, '')}: hello there`,
          `${b.account.replace(/fr$/, '')}: [图片]`,
          `${a.account.replace(/fr$/, '')}: see you`,
        ],
      },
    });
    const got = (await list(c, a.userId)).filter((m) => m.type !== 'event');
    expect(got.map((m) => m.type)).toEqual(['record', 'text']);
    expect(got[1].content).toBe('看看');
    expect(
      (await server.call('getContacts', {}, { token: c.token, lang: ZH })).data.find((x: any) => x.id === a.userId),
    ).toMatchObject({ lastContent: '看看' });

    const opened = await record(c, { msg_id: got[0].msg_id });
    expect(opened.code, opened.msg).toBe(0);
    expect(opened.data.title).toBe(title);
    expect(opened.data.items.map((i: any) => [i.msg_id, i.type, i.fromUser.id, i.mine])).toEqual([
      [one, 'text', a.userId, 0],
      [pic.msg_id, 'image', b.userId, 0],
      [three, 'text', a.userId, 0],
    ]);
    expect(opened.data.items[1]).toMatchObject({ content: pic.content, preview: pic.extends.thumb });
    // The forwarder reads it as theirs; an English reader in English.
    const mine = await record(a, { msg_id: got[0].msg_id });
    expect(mine.data.items[0].mine).toBe(1);
    const english = await server.call('getMessageList', { toContactId: a.userId }, { token: c.token, lang: 'en' });
    const card = english.data.find((m: any) => m.type === 'record');
    expect(card.content).toMatch(/^\[Chat history\] Chat history of /);
    expect(card.extends.lines[1]).toMatch(/: \[Photo\]$/);
    expect(card.extends.heads).toBeUndefined();

    // Search finds the record by its title, and the search's type filter names it.
    const found = await server.call(
      'searchMessage',
      { keywords: '聊天记录', type: 'record' },
      { token: a.token, lang: ZH },
    );
    expect(found.data.map((h: any) => h.msg_id)).toContain(got[0].msg_id);
    sc.close();
  });

  it('is a snapshot: a withdrawn original stays in it, and its file still downloads for the receiver', async () => {
    const [a, b, c] = [await fresh('hal'), await fresh('ida'), await fresh('jon')];
    await makeFriends(server, a, b);
    await makeFriends(server, a, c);
    const text = await send(a, b.userId, 'soon withdrawn');
    const pic = await sendImage(a, b.userId, '#123456');
    expect((await forward(a, { msg_ids: [text, pic.msg_id], user_ids: [c.userId], mode: 'merge' })).code).toBe(0);
    expect((await server.call('undoMessage', { id: text }, { token: a.token, lang: ZH })).code).toBe(0);
    expect((await server.call('undoMessage', { id: pic.msg_id }, { token: a.token, lang: ZH })).code).toBe(0);
    // The original is withdrawn for b …
    expect((await list(b, a.userId)).filter((m) => m.type !== 'event')).toEqual([]);
    // … the record keeps it for c, with its picture.
    const card = (await list(c, a.userId)).find((m) => m.type === 'record');
    const opened = await record(c, { msg_id: card.msg_id });
    expect(opened.data.items.map((i: any) => i.content)).toEqual(['soon withdrawn', pic.content]);
    expect((await server.get(pic.content)).status).toBe(200);
    expect((await server.get(pic.extends.thumb)).status).toBe(200);
  });

  it('refuses the whole forward when one message is not the forwarder’s to see, and sends nothing', async () => {
    const [a, b, c, stranger] = [await fresh('kim'), await fresh('lea'), await fresh('max'), await fresh('ned')];
    await makeFriends(server, a, b);
    await makeFriends(server, a, c);
    await makeFriends(server, stranger, b);
    const mine = await send(a, b.userId, 'mine to forward');
    const theirs = await send(stranger, b.userId, 'between others');
    // A group that hides history from newcomers, and a member removed from it.
    const owner = await fresh('oli');
    const removed = await fresh('pat');
    const gid = await makeGroup(server, owner, [removed, await fresh('ora')]);
    await server.call('groupSetting', { id: gid, setting: { history: 0 } }, { token: owner.token, lang: ZH });
    const before = await send(owner, gid, 'said before the newcomer');
    await makeFriends(server, owner, a);
    await server.call('addGroupUser', { id: gid, user_ids: [a.userId] }, { token: owner.token, lang: ZH });
    const after = await send(owner, gid, 'said after');
    const inGroup = await send(removed, gid, 'said by the removed');
    expect(
      (await server.call('removeUser', { id: gid, user_id: removed.userId }, { token: owner.token, lang: ZH })).code,
    ).toBe(0);
    await makeFriends(server, removed, c);

    for (const mode of ['each', 'merge'] as const) {
      for (const [who, ids] of [
        [a, [mine, theirs]],
        [a, [mine, before]],
        [removed, [inGroup]],
        [a, [mine, 999_999_999]],
      ] as const) {
        const res = await forward(who, { msg_ids: ids, user_ids: [c.userId], mode });
        expect(res.code, `${mode} ${ids.join()}`).toBe(ErrorCodes.MessageNotFound);
      }
      // Seen: the later group message forwards.
      expect((await forward(a, { msg_ids: [mine, after], user_ids: [c.userId], mode: 'each' })).code).toBe(0);
    }
    const got = (await list(c, a.userId)).filter((m) => m.type !== 'event');
    expect(got.map((m) => m.content)).toEqual(['mine to forward', 'said after', 'mine to forward', 'said after']);
    expect((await list(c, removed.userId)).filter((m) => m.type !== 'event')).toEqual([]);

    // An ex-friend as a target refuses the whole forward: nothing reaches the other chat either.
    expect((await server.call('friendDel', { id: c.userId }, { token: a.token, lang: ZH })).code).toBe(0);
    const d = await fresh('quin');
    await makeFriends(server, a, d);
    const refused = await forward(a, { msg_ids: [mine], user_ids: [d.userId, c.userId], mode: 'merge' });
    expect(refused.code).toBe(ErrorCodes.NotFriendChat);
    expect((await list(d, a.userId)).filter((m) => m.type !== 'event')).toEqual([]);
    // Event lines and calls are not forwarded.
    const line = (await list(a, gid)).find((m) => m.type === 'event');
    expect((await forward(a, { msg_ids: [line.msg_id], user_ids: [d.userId], mode: 'merge' })).code).toBe(
      ErrorCodes.NotAllowedTarget,
    );
  });

  it('opens a record held inside another only through the record that holds it', async () => {
    const [a, b, c, d] = [await fresh('rae'), await fresh('sam'), await fresh('ted'), await fresh('uma')];
    await makeFriends(server, a, b);
    await makeFriends(server, a, c);
    await makeFriends(server, c, d);
    const one = await send(a, b.userId, 'inner one');
    const two = await send(b, a.userId, 'inner two');
    expect((await forward(a, { msg_ids: [one, two], user_ids: [c.userId], mode: 'merge' })).code).toBe(0);
    const inner = (await list(c, a.userId)).find((m) => m.type === 'record');
    const plain = await send(c, d.userId, 'outer text');
    expect((await forward(c, { msg_ids: [inner.msg_id, plain], user_ids: [d.userId], mode: 'merge' })).code).toBe(0);
    const outer = (await list(d, c.userId)).find((m) => m.type === 'record');
    expect(outer.extends.lines[0]).toMatch(/: \[聊天记录\]$/);

    const opened = await record(d, { msg_id: outer.msg_id });
    expect(opened.data.items.map((i: any) => i.type)).toEqual(['record', 'text']);
    const innerId = opened.data.items[0].extends.record_id;
    expect(innerId).toBe(inner.extends.record_id);
    const nested = await record(d, { msg_id: outer.msg_id, record_id: innerId });
    expect(nested.code, nested.msg).toBe(0);
    expect(nested.data.title).toBe(inner.extends.title);
    expect(nested.data.items.map((i: any) => i.content)).toEqual(['inner one', 'inner two']);

    // Not through another message, not by a stranger, not the outer through the inner.
    const stranger = await fresh('vic');
    for (const [who, body] of [
      [d, { msg_id: plain, record_id: innerId }],
      [stranger, { msg_id: outer.msg_id }],
      [stranger, { msg_id: outer.msg_id, record_id: innerId }],
      [c, { msg_id: inner.msg_id, record_id: outer.extends.record_id }],
      [d, { msg_id: outer.msg_id, record_id: innerId + 1000 }],
    ] as const)
      expect((await record(who, body)).code).toBe(ErrorCodes.MessageNotFound);
  });

  it(`refuses more than ${FORWARD_RECORD_MAX} messages before reading any, and more than 5 chats`, async () => {
    const [a, b] = [await fresh('wes'), await fresh('xia')];
    await makeFriends(server, a, b);
    const id = await send(a, b.userId, 'one');
    const ids = Array.from({ length: FORWARD_RECORD_MAX + 1 }, (_, i) => id + i);
    const res = await forward(a, { msg_ids: ids, user_ids: [b.userId], mode: 'merge' });
    expect(res.code).toBe(ErrorCodes.Validation);
    const targets = await forward(a, { msg_ids: [id], user_ids: [1, 2, 3, 4, 5, 6], mode: 'each' });
    expect(targets.code).toBe(ErrorCodes.Validation);
    expect((await forward(a, { msg_ids: [], user_ids: [b.userId], mode: 'each' })).code).toBe(ErrorCodes.Validation);
    expect((await forward(a, { msg_ids: [id], user_ids: [b.userId], mode: 'all' })).code).toBe(ErrorCodes.Validation);
    // A full record is taken.
    await server.ctx.config.set('rateLimits.sendMessage.burst', '1000');
    await server.ctx.config.set('rateLimits.anyCall.perMinute', '100000');
    server.clock.advance(120_000);
    const many: number[] = [];
    for (let i = 0; i < FORWARD_RECORD_MAX; i++) many.push(await send(a, b.userId, `line ${i}`));
    expect((await forward(a, { msg_ids: many, user_ids: [b.userId], mode: 'merge' })).code).toBe(0);
    await server.ctx.config.set('rateLimits.sendMessage.burst', String(RATE_LIMITS.sendMessage.burst));
    await server.ctx.config.set('rateLimits.anyCall.perMinute', String(RATE_LIMITS.anyCall.perMinute));
    const card = (await list(b, a.userId)).at(-1);
    expect(card.extends).toMatchObject({ count: FORWARD_RECORD_MAX });
    expect(card.extends.lines).toHaveLength(4);
  });
});
