import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCodes, type RouteName } from '@sparrow/protocol';
import { openDb } from '../src/db';
import { createRepos } from '../src/repos';
import { SessionService } from '../src/modules/auth';
import { Cluster, describeWithRedis } from './cluster';
import { dbTargets, describeEachDb, serverForSuite, TestSocket, userRow, type TestServer } from './harness';

interface Person {
  id: number;
  token: string;
}

let k = 0;

describeEachDb('keyword rules (敏感词)', (target) => {
  let server!: TestServer;
  serverForSuite(target, (s) => (server = s), { 'chatInfo.sendInterval': '0', 'chatInfo.editTime': '600' });

  async function person(name: string, role = 0): Promise<Person> {
    const { db, sessions } = server.ctx;
    const row = await db
      .insertInto('users')
      .values({ ...userRow(`${name}${++k}kw`), role })
      .returning('id')
      .executeTakeFirstOrThrow();
    const session = await sessions.create(row.id, { cid: '', isMobile: false, userAgent: 't', ip: '::1' });
    return { id: row.id, token: `bearer ${session.token}` };
  }

  async function call(name: RouteName, body: object, as: Person): Promise<any> {
    const res = await server.call(name, body, { token: as.token });
    expect(res.code, `${name}: ${res.msg}`).toBe(0);
    return res.data;
  }
  const answer = (name: RouteName, body: object, as: Person, lang = 'zh-Hans') =>
    server.call(name, body, { token: as.token, lang });

  /** Alice and Bob, friends, Carl a friend of Alice's; a group of the three; the admin. */
  async function cast() {
    const admin = await person('admin', 1);
    const [alice, bob, carl] = [await person('alice'), await person('bob'), await person('carl')];
    for (const other of [bob, carl]) {
      await call('friendAdd', { user_id: other.id }, alice);
      await call('friendAdd', { user_id: alice.id }, other);
    }
    const group = await call('groupAdd', { user_ids: [bob.id, carl.id], name: '讨论组' }, alice);
    return { admin, alice, bob, carl, gid: group.group_id as string };
  }

  /** A fresh list of each action, each with its own words (unique to the test). */
  async function lists(admin: Person) {
    const n = ++k;
    // Closed by 号, so that no test's word is found inside another's (禁词4 in 禁词45).
    const words = { refuse: `禁词${n}号`, replace: `坏蛋${n}号`, review: `审核词${n}号` };
    const ids: Record<string, number> = {};
    for (const action of ['refuse', 'replace', 'review'] as const) {
      const list = await call('manageKeywordListCreate', { name: `${action}${n}`, action }, admin);
      expect(list).toMatchObject({ action, enabled: 1, word_count: 0 });
      const added = await call('manageKeywordAdd', { list_id: list.id, words: `${words[action]}\n\n` }, admin);
      expect(added).toEqual({ added: 1, existing: 0, invalid: [] });
      ids[action] = list.id;
    }
    return { words, ids };
  }

  const send = (from: Person, to: number | string, content: string, id = randomUUID()) =>
    answer('sendMessage', { id, toContactId: to, type: 'text', content }, from);

  async function history(reader: Person, to: number | string): Promise<any[]> {
    return call('getMessageList', { toContactId: to, is_group: typeof to === 'string' ? 1 : 0, limit: 50 }, reader);
  }

  it('refuses, replaces and holds a text message as each list says; the refusal names no word', async () => {
    const { admin, alice, bob } = await cast();
    const { words } = await lists(admin);
    const refused = await send(alice, bob.id, `你好${words.refuse}`);
    expect(refused.code).toBe(ErrorCodes.KeywordRefused);
    expect(refused.msg).toBe('内容包含敏感词，无法发送');
    expect(refused.msg).not.toContain(words.refuse);
    const en = await answer(
      'sendMessage',
      { id: randomUUID(), toContactId: bob.id, type: 'text', content: words.refuse },
      alice,
      'en',
    );
    expect(en.msg).toBe('The content contains a prohibited word and cannot be sent');
    // Case and width folded: a replace word in full-width letters is starred too.
    const replaced = await send(alice, bob.id, `他是${words.replace}吧`);
    expect(replaced.code).toBe(0);
    expect(replaced.data.content).toBe(`他是${'*'.repeat([...words.replace].length)}吧`);
    const seen = await history(bob, alice.id);
    expect(seen.map((m) => m.content)).toEqual([replaced.data.content]);
    expect(JSON.stringify(await history(bob, alice.id))).not.toContain(words.refuse);
  });

  it('applies to a place’s name, and refuses an edit with a refuse or review word', async () => {
    const { admin, alice, bob } = await cast();
    const { words } = await lists(admin);
    const place = await answer(
      'sendMessage',
      {
        id: randomUUID(),
        toContactId: bob.id,
        type: 'location',
        content: '',
        extends: { name: `${words.replace}大厦`, address: '某路 1 号', latitude: 30, longitude: 120 },
      },
      alice,
    );
    expect(place.code, place.msg).toBe(0);
    expect(place.data.extends.name).toBe(`${'*'.repeat([...words.replace].length)}大厦`);
    const placeRefused = await answer(
      'sendMessage',
      {
        id: randomUUID(),
        toContactId: bob.id,
        type: 'location',
        content: '',
        extends: { name: words.refuse, address: '', latitude: 30, longitude: 120 },
      },
      alice,
    );
    expect(placeRefused.code).toBe(ErrorCodes.KeywordRefused);
    const text = (await send(alice, bob.id, '原文')).data;
    for (const word of [words.refuse, words.review]) {
      const edit = await answer('editMessage', { id: text.msg_id, content: `改成${word}` }, alice);
      expect(edit.code).toBe(ErrorCodes.KeywordRefused);
    }
    const edited = await answer('editMessage', { id: text.msg_id, content: `改成${words.replace}` }, alice);
    expect(edited.code, edited.msg).toBe(0);
  });

  it('holds a message: invisible to the chat (history, sync, search, push) until approved, then delivered once', async () => {
    const { admin, alice, bob, gid } = await cast();
    const { words } = await lists(admin);
    const bobSocket = await TestSocket.bound(server, bob.id, bob.token);
    const aliceSocket = await TestSocket.bound(server, alice.id, alice.token);
    const before = (await call('sync', { after_id: 0 }, bob)).length;
    const id = randomUUID();
    const held = await send(alice, gid, `大家看${words.review}和${words.replace}`, id);
    expect(held.code, held.msg).toBe(0);
    expect(held.data).toMatchObject({ id, msg_id: 0, held: 1, toContactId: gid });
    // Replace lists apply to the held text too.
    expect(held.data.content).not.toContain(words.replace);
    // The same id again answers the same held copy, and holds nothing more.
    expect((await send(alice, gid, `大家看${words.review}和${words.replace}`, id)).data).toMatchObject({ held: 1 });
    expect((await call('manageHeldList', {}, admin)).filter((h: any) => h.user_id === alice.id)).toHaveLength(1);
    await bobSocket.roundTrip();
    expect(bobSocket.frames.some((f) => JSON.stringify(f).includes(words.review))).toBe(false);
    expect((await history(bob, gid)).some((m) => m.id === id)).toBe(false);
    expect((await history(alice, gid)).some((m) => m.id === id)).toBe(false);
    expect((await call('sync', { after_id: 0 }, bob)).length).toBe(before);
    expect(await call('searchMessage', { keywords: words.review }, bob)).toEqual([]);

    const queue = await call('manageHeldList', { status: 0 }, admin);
    const item = queue.find((h: any) => h.user_id === alice.id);
    expect(item).toMatchObject({ kind: 'message', target: '讨论组', status: 0 });
    expect(item.words.sort()).toEqual([words.review, words.replace].sort());
    await call('manageHeldDecide', { id: item.id, decision: 'approve' }, admin);
    const pushed = await bobSocket.waitFor((f) => f.type === 'group' && f.data.id === id);
    expect(pushed.data.content).toContain(words.review);
    await aliceSocket.waitFor((f) => f.type === 'group' && f.data.id === id);
    await aliceSocket.waitFor((f) => f.type === 'held' && f.data.id === id && f.data.decision === 'approve');
    const again = await answer('manageHeldDecide', { id: item.id, decision: 'approve' }, admin);
    expect(again.code).toBe(ErrorCodes.HeldDecided);
    const rejectLate = await answer('manageHeldDecide', { id: item.id, decision: 'reject' }, admin);
    expect(rejectLate.code).toBe(ErrorCodes.HeldDecided);
    expect((await history(bob, gid)).filter((m) => m.id === id)).toHaveLength(1);
    // The sender's retry now answers the stored message.
    const retried = await send(alice, gid, `大家看${words.review}和${words.replace}`, id);
    expect(retried.data.msg_id).toBeGreaterThan(0);
    expect(retried.data.held).toBeUndefined();
    const audit = await call('manageAuditList', { action: 'heldApprove' }, admin);
    expect(audit.some((a: any) => a.target === `held:${item.id}`)).toBe(true);
    bobSocket.close();
    aliceSocket.close();
  });

  it('rejects a held message: never delivered, its sender told, a retry refused', async () => {
    const { admin, alice, bob } = await cast();
    const { words } = await lists(admin);
    const aliceSocket = await TestSocket.bound(server, alice.id, alice.token);
    const id = randomUUID();
    expect((await send(alice, bob.id, `私聊${words.review}`, id)).data).toMatchObject({ held: 1, msg_id: 0 });
    const item = (await call('manageHeldList', {}, admin)).find((h: any) => h.user_id === alice.id);
    await call('manageHeldDecide', { id: item.id, decision: 'reject' }, admin);
    const told = await aliceSocket.waitFor((f) => f.type === 'held' && f.data.id === id);
    expect(told.data).toEqual({ kind: 'message', id, toContactId: bob.id, decision: 'reject' });
    expect((await history(bob, alice.id)).some((m) => m.id === id)).toBe(false);
    expect((await send(alice, bob.id, `私聊${words.review}`, id)).code).toBe(ErrorCodes.KeywordRefused);
    const rejected = await call('manageHeldList', { status: 2 }, admin);
    expect(rejected.some((h: any) => h.id === item.id)).toBe(true);
    aliceSocket.close();
  });

  it('delivers an approved message only if the rules of sending allow it now; one they refuse is kept as rejected', async () => {
    const { admin, alice, bob, carl, gid } = await cast();
    const { words } = await lists(admin);
    const bobSocket = await TestSocket.bound(server, bob.id, bob.token);
    const carlSocket = await TestSocket.bound(server, carl.id, carl.token);
    // Bob writes to Alice, Carl to Alice's group, Alice to Carl; then Alice blocks Bob, lets only
    // admins speak in her group, and Carl's account is deleted.
    const held = [
      { by: bob, to: alice.id as number | string, content: `私聊${words.review}`, id: randomUUID() },
      { by: carl, to: gid, content: `群聊${words.review}`, id: randomUUID() },
      { by: alice, to: carl.id, content: `给卡尔${words.review}`, id: randomUUID() },
    ];
    for (const h of held) expect((await send(h.by, h.to, h.content, h.id)).data).toMatchObject({ held: 1 });
    await call('blockAdd', { user_id: bob.id }, alice);
    await call('groupSetting', { id: gid, setting: { nospeak: 1 } }, alice);
    const queue = await call('manageHeldList', { limit: 100 }, admin);
    const items = held.map((h) => queue.find((q: any) => q.user_id === h.by.id && q.content === h.content));
    for (const item of items.slice(0, 2)) await call('manageHeldDecide', { id: item.id, decision: 'approve' }, admin);
    await server.ctx.db.updateTable('users').set({ status: 2 }).where('id', '=', carl.id).execute();
    await call('manageHeldDecide', { id: items[2].id, decision: 'approve' }, admin);
    await server.ctx.db.updateTable('users').set({ status: 1 }).where('id', '=', carl.id).execute();

    expect((await history(alice, bob.id)).some((m) => m.id === held[0]!.id)).toBe(false);
    expect((await history(alice, gid)).some((m) => m.id === held[1]!.id)).toBe(false);
    expect((await history(carl, alice.id)).some((m) => m.id === held[2]!.id)).toBe(false);
    await bobSocket.waitFor((f) => f.type === 'held' && f.data.id === held[0]!.id && f.data.decision === 'reject');
    await carlSocket.waitFor((f) => f.type === 'held' && f.data.id === held[1]!.id && f.data.decision === 'reject');
    // Kept as rejected: a retry, once the rules allow it again, is refused instead of answering 审核中 for ever.
    await call('blockDel', { user_id: bob.id }, alice);
    await call('groupSetting', { id: gid, setting: { nospeak: 0 } }, alice);
    for (const h of held) expect((await send(h.by, h.to, h.content, h.id)).code).toBe(ErrorCodes.KeywordRefused);
    const rejected = (await call('manageHeldList', { status: 2, limit: 100 }, admin)).map((h: any) => h.id);
    for (const item of items) expect(rejected).toContain(item.id);
    const audit = await call('manageAuditList', { action: 'heldApprove', limit: 100 }, admin);
    for (const item of items)
      expect(JSON.parse(audit.find((a: any) => a.target === `held:${item.id}`).detail)).toMatchObject({ gone: true });
    bobSocket.close();
    carlSocket.close();
  });

  /** A file uploaded by `as` under `name`; the same bytes are one stored file whoever uploads them. */
  async function upload(as: Person, name: string, bytes: Buffer): Promise<number> {
    const up = await server.upload('uploadFile', { name, bytes }, { token: as.token });
    expect(up.json.code, up.json.msg).toBe(0);
    return up.json.data.file_id;
  }
  const sendFile = (from: Person, to: number, fileId: number, id = randomUUID()) =>
    answer('sendMessage', { id, toContactId: to, type: 'file', content: '', file_id: fileId }, from);

  it('keeps the file of a held message while it waits: freeing its older message leaves it for the approval', async () => {
    const { admin, alice, bob } = await cast();
    const { words } = await lists(admin);
    const bytes = Buffer.from(`held file ${randomUUID()}`);
    // Bob sends the bytes as a plain file; Alice sends the same bytes under a name a review list holds.
    const first = await sendFile(bob, alice.id, await upload(bob, 'notes.txt', bytes));
    expect(first.code, first.msg).toBe(0);
    const fileId = await upload(alice, `${words.review}.txt`, bytes);
    const id = randomUUID();
    expect((await sendFile(alice, bob.id, fileId, id)).data).toMatchObject({ held: 1, msg_id: 0 });
    // Bob's message withdrawn: the file would be freed if nothing else used it.
    await call('undoMessage', { id: first.data.msg_id }, bob);
    const file = await server.ctx.repos.files.byId(fileId);
    expect(file!.removed_at).toBe(0);
    const item = (await call('manageHeldList', { limit: 100 }, admin)).find((h: any) => h.user_id === alice.id);
    await call('manageHeldDecide', { id: item.id, decision: 'approve' }, admin);
    const delivered = (await history(bob, alice.id)).find((m) => m.id === id);
    expect(delivered).toMatchObject({ type: 'file', extends: { file_id: fileId } });
    const opened = await server.ctx.storage.open(file!.storage_key);
    expect(opened).not.toBeNull();
    opened?.stream.destroy();
  });

  it('an approval that fails (the file expired meanwhile) is kept as rejected, audited, and its sender told', async () => {
    const { admin, alice, bob } = await cast();
    const { words } = await lists(admin);
    const aliceSocket = await TestSocket.bound(server, alice.id, alice.token);
    const fileId = await upload(alice, `${words.review}.txt`, Buffer.from(`expiring ${randomUUID()}`));
    const id = randomUUID();
    expect((await sendFile(alice, bob.id, fileId, id)).data).toMatchObject({ held: 1 });
    // Its bytes gone as the retention of old files removes them.
    await server.ctx.db.updateTable('files').set({ removed_at: Date.now() }).where('id', '=', fileId).execute();
    const item = (await call('manageHeldList', { limit: 100 }, admin)).find((h: any) => h.user_id === alice.id);
    await call('manageHeldDecide', { id: item.id, decision: 'approve' }, admin);
    await aliceSocket.waitFor((f) => f.type === 'held' && f.data.id === id && f.data.decision === 'reject');
    expect((await history(bob, alice.id)).some((m) => m.id === id)).toBe(false);
    expect((await sendFile(alice, bob.id, fileId, id)).code).toBe(ErrorCodes.KeywordRefused);
    expect((await call('manageHeldList', { status: 2, limit: 100 }, admin)).map((h: any) => h.id)).toContain(item.id);
    const audit = await call('manageAuditList', { action: 'heldApprove', limit: 100 }, admin);
    expect(JSON.parse(audit.find((a: any) => a.target === `held:${item.id}`).detail)).toMatchObject({ gone: true });
    aliceSocket.close();
  });

  it('screens display names at registration and on edit, group names and announcements', async () => {
    const { admin, alice, gid } = await cast();
    const { words } = await lists(admin);
    for (const word of [words.refuse, words.review]) {
      const reg = await server.call('register', {
        account: `kw${++k}reg`,
        password: 'secret123',
        realname: `我是${word}`,
      });
      expect(reg.code).toBe(ErrorCodes.KeywordRefusedName);
      const edit = await answer('updateUserInfo', { realname: `名${word}` }, alice);
      expect(edit.code).toBe(ErrorCodes.KeywordRefusedName);
      expect((await answer('editGroupName', { id: gid, displayName: `群${word}` }, alice)).code).toBe(
        ErrorCodes.KeywordRefusedName,
      );
      expect((await answer('setNotice', { id: gid, notice: `<p>公告${word}</p>` }, alice)).code).toBe(
        ErrorCodes.KeywordRefusedName,
      );
    }
    const stars = '*'.repeat([...words.replace].length);
    const reg = await server.call('register', {
      account: `kw${++k}reg`,
      password: 'secret123',
      realname: `我是${words.replace}`,
    });
    expect(reg.data.realname).toBe(`我是${stars}`);
    expect((await call('updateUserInfo', { realname: `名${words.replace}` }, alice)).realname).toBe(`名${stars}`);
    await call('editGroupName', { id: gid, displayName: `群${words.replace}` }, alice);
    await call('setNotice', { id: gid, notice: `<p>公告${words.replace}</p>` }, alice);
    const info = await call('groupInfo', { group_id: gid }, alice);
    expect(info.name).toBe(`群${stars}`);
    expect(info.notice).toContain(`公告${stars}`);
    const refusedGroup = await answer('groupAdd', { user_ids: [admin.id, alice.id], name: words.refuse }, alice);
    expect(refusedGroup.code).not.toBe(0);
  });

  it('holds a moments post and comment: only the author sees them until approved; refuse and replace apply', async () => {
    const { admin, alice, bob } = await cast();
    const { words } = await lists(admin);
    const publish = (content: string) => answer('momentsPublish', { id: randomUUID(), content, visibility: 1 }, alice);
    expect((await publish(`动态${words.refuse}`)).code).toBe(ErrorCodes.KeywordRefused);
    const starred = await publish(`动态${words.replace}`);
    expect(starred.data.content).not.toContain(words.replace);
    const held = await publish(`动态${words.review}`);
    expect(held.data).toMatchObject({ held: 1 });
    const feed = async (p: Person) => (await call('momentsList', {}, p)).map((post: any) => post.id);
    expect(await feed(alice)).toContain(held.data.id);
    expect(await feed(bob)).not.toContain(held.data.id);
    const comment = await answer('momentsComment', { id: starred.data.id, content: `评论${words.review}` }, bob);
    expect(comment.data).toMatchObject({ id: 0, held: 1 });
    const comments = async () =>
      (await call('momentsList', {}, alice)).find((post: any) => post.id === starred.data.id).comments;
    expect(await comments()).toEqual([]);
    const queue = await call('manageHeldList', {}, admin);
    for (const kind of ['moment', 'comment'])
      await call(
        'manageHeldDecide',
        {
          id: queue.find((h: any) => h.kind === kind && [alice.id, bob.id].includes(h.user_id)).id,
          decision: 'approve',
        },
        admin,
      );
    expect(await feed(bob)).toContain(held.data.id);
    expect((await comments()).map((c: any) => c.content)).toEqual([`评论${words.review}`]);
    // A rejected post is taken down, its author's copy included.
    const rejected = await publish(`又一条${words.review}`);
    const item = (await call('manageHeldList', {}, admin)).find(
      (h: any) => h.kind === 'moment' && h.content === `又一条${words.review}`,
    );
    await call('manageHeldDecide', { id: item.id, decision: 'reject' }, admin);
    expect(await feed(alice)).not.toContain(rejected.data.id);
  });

  it('screens a motto, a pat suffix and a group nickname as names when they change', async () => {
    const { admin, alice, gid } = await cast();
    const { words } = await lists(admin);
    for (const word of [words.refuse, words.review]) {
      for (const body of [{ motto: `签名${word}` }, { pat_suffix: `的${word}` }])
        expect((await answer('updateUserInfo', body, alice)).code).toBe(ErrorCodes.KeywordRefusedName);
      expect((await answer('updateCard', { group_id: gid, nickname: `昵称${word}` }, alice)).code).toBe(
        ErrorCodes.KeywordRefusedName,
      );
    }
    const stars = '*'.repeat([...words.replace].length);
    const info = await call(
      'updateUserInfo',
      { motto: `签名${words.replace}`, pat_suffix: `的${words.replace}` },
      alice,
    );
    expect(info).toMatchObject({ motto: `签名${stars}`, pat_suffix: `的${stars}` });
    await call('updateCard', { group_id: gid, nickname: `昵称${words.replace}` }, alice);
    expect((await send(alice, gid, '看我的群昵称')).data.fromUser.displayName).toBe(`昵称${stars}`);
  });

  it('marks my own waiting post as held in my feed and album; a held comment sent again waits once', async () => {
    const { admin, alice, bob } = await cast();
    const { words } = await lists(admin);
    const publish = (content: string, visibility = 1) =>
      call('momentsPublish', { id: randomUUID(), content, visibility }, alice);
    const held = await publish(`动态${words.review}`);
    expect(held).toMatchObject({ held: 1 });
    const plain = await publish('普通动态');
    const onlyMine = await publish('仅自己可见', 2);
    const shown = async (body: object) => {
      const posts = await call('momentsList', body, alice);
      return [held, plain, onlyMine].map((p) => posts.find((q: any) => q.id === p.id)?.held);
    };
    expect(await shown({})).toEqual([1, undefined, undefined]);
    expect(await shown({ user_id: alice.id })).toEqual([1, undefined, undefined]);
    expect((await call('momentsList', { user_id: alice.id }, bob)).some((p: any) => p.id === held.id)).toBe(false);

    const comment = () => answer('momentsComment', { id: plain.id, content: `评论${words.review}` }, bob);
    for (let i = 0; i < 2; i++) expect((await comment()).data).toMatchObject({ id: 0, held: 1 });
    const queue = await call('manageHeldList', { limit: 100 }, admin);
    const comments = queue.filter((h: any) => h.kind === 'comment' && h.user_id === bob.id);
    expect(comments).toHaveLength(1);
    const post = queue.find((h: any) => h.kind === 'moment' && h.user_id === alice.id);
    await call('manageHeldDecide', { id: post.id, decision: 'approve' }, admin);
    expect(await shown({})).toEqual([undefined, undefined, undefined]);
    // Rejected, the same comment again is refused as a refuse list refuses.
    await call('manageHeldDecide', { id: comments[0].id, decision: 'reject' }, admin);
    expect((await comment()).code).toBe(ErrorCodes.KeywordRefused);
  });

  it('turns a list off, renames, deletes; bounds an import; tests a text; audits each change', async () => {
    const { admin, alice, bob } = await cast();
    const { words, ids } = await lists(admin);
    await call('manageKeywordListUpdate', { id: ids.refuse, enabled: 0, name: '停用' }, admin);
    expect((await send(alice, bob.id, words.refuse)).code).toBe(0);
    await call('manageKeywordListUpdate', { id: ids.refuse, enabled: 1 }, admin);
    expect((await send(alice, bob.id, words.refuse)).code).toBe(ErrorCodes.KeywordRefused);
    const test = await call('manageKeywordTest', { text: `${words.replace}与${words.review}` }, admin);
    expect(test).toEqual({
      action: 'review',
      words: expect.arrayContaining([words.replace, words.review]),
      replaced: `${'*'.repeat([...words.replace].length)}与${words.review}`,
    });
    const added = await call(
      'manageKeywordAdd',
      { list_id: ids.refuse, words: `赌*博\n*坏\n${words.refuse}\n${'长'.repeat(65)}` },
      admin,
    );
    expect(added).toEqual({ added: 1, existing: 1, invalid: ['*坏', '长'.repeat(65)] });
    expect((await send(alice, bob.id, '去赌一把博')).code).toBe(ErrorCodes.KeywordRefused);
    const tooMany = Array.from({ length: 20_001 }, (_, i) => `w${i}`).join('\n');
    const full = await answer('manageKeywordAdd', { list_id: ids.refuse, words: tooMany }, admin);
    expect(full.code).toBe(ErrorCodes.KeywordListFull);
    const page = await server.call(
      'manageKeywordWords',
      { list_id: ids.refuse, keywords: '博' },
      { token: admin.token },
    );
    expect(page.data.map((w: any) => w.word)).toEqual(['赌*博']);
    expect(page.count).toBe(1);
    await call('manageKeywordRemove', { list_id: ids.refuse, ids: page.data.map((w: any) => w.id) }, admin);
    expect((await send(alice, bob.id, '去赌一把博')).code).toBe(0);
    await call('manageKeywordListDel', { id: ids.refuse }, admin);
    expect((await send(alice, bob.id, words.refuse)).code).toBe(0);
    expect((await call('manageKeywordLists', {}, admin)).some((l: any) => l.id === ids.refuse)).toBe(false);
    const actions = (await call('manageAuditList', { limit: 100 }, admin)).map((a: any) => a.action);
    for (const action of ['keywordListCreate', 'keywordAdd', 'keywordListUpdate', 'keywordRemove', 'keywordListDel'])
      expect(actions).toContain(action);
  });

  it('refuses the console routes to non-admins', async () => {
    const { alice } = await cast();
    for (const [name, body] of [
      ['manageKeywordLists', {}],
      ['manageKeywordListCreate', { name: 'x', action: 'refuse' }],
      ['manageKeywordAdd', { list_id: 1, words: 'x' }],
      ['manageKeywordTest', { text: 'x' }],
      ['manageHeldList', {}],
      ['manageHeldDecide', { id: 1, decision: 'approve' }],
    ] as const) {
      expect((await server.call(name, body, { token: alice.token })).code, name).toBe(403);
    }
  });
});

describeWithRedis('keyword rules across two nodes', (redisUrl) => {
  if (!dbTargets().includes('postgres')) return;
  let cluster!: Cluster;
  let admin!: Person;
  let alice!: Person;
  let bob!: Person;
  let close!: () => Promise<void>;

  beforeAll(async () => {
    cluster = await Cluster.start('postgres', redisUrl, 2);
    const opened = openDb({ databaseUrl: cluster.databaseUrl, dataDir: cluster.dataDir });
    const sessions = new SessionService(createRepos(opened.db, opened.dialect), Date.now);
    const make = async (name: string, role: number) => {
      const row = await opened.db
        .insertInto('users')
        .values({ ...userRow(`${name}${process.pid}kwc`), role })
        .returning('id')
        .executeTakeFirstOrThrow();
      const s = await sessions.create(row.id, { cid: '', isMobile: false, userAgent: 't', ip: '::1' });
      return { id: row.id, token: `bearer ${s.token}` };
    };
    admin = await make('admin', 1);
    alice = await make('alice', 0);
    bob = await make('bob', 0);
    close = async () => {
      await opened.close();
      await cluster.stop();
    };
  }, 60_000);
  afterAll(async () => close?.());

  it('a list changed on one node applies on the other', async () => {
    const [one, two] = cluster.nodes as [(typeof cluster.nodes)[0], (typeof cluster.nodes)[0]];
    expect((await two.call('friendAdd', { user_id: bob.id }, alice.token)).code).toBe(0);
    expect((await two.call('friendAdd', { user_id: alice.id }, bob.token)).code).toBe(0);
    const sendOnTwo = () =>
      two.call(
        'sendMessage',
        { id: randomUUID(), toContactId: bob.id, type: 'text', content: '集群禁词' },
        alice.token,
      );
    expect((await sendOnTwo()).code).toBe(0);
    const list = await one.call('manageKeywordListCreate', { name: 'cluster', action: 'refuse' }, admin.token);
    expect(list.code, list.msg).toBe(0);
    expect((await one.call('manageKeywordAdd', { list_id: list.data.id, words: '集群禁词' }, admin.token)).code).toBe(
      0,
    );
    const deadline = Date.now() + 10_000;
    let code = 0;
    while (Date.now() < deadline && code === 0) {
      code = (await sendOnTwo()).code;
      if (code === 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(code).toBe(ErrorCodes.KeywordRefused);
  }, 30_000);
});
