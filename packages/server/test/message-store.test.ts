import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OpenedDb } from '../src/db';
import { ConversationRepo } from '../src/modules/im/conversation-repo';
import { ChatType, MessageRepo, pairKey, selfKey, type NewMessage } from '../src/modules/im/repo';
import { MessageStoreRepo } from '../src/modules/im/store-repo';
import { describeEachDb, openTestDb, userRow } from './harness';

describeEachDb('storing a message', (target) => {
  let opened: OpenedDb;
  let repo: MessageStoreRepo;
  let messages: MessageRepo;
  let conversations: ConversationRepo;
  let close = async () => {};
  const ids: number[] = [];

  beforeAll(async () => {
    ({ opened, close } = await openTestDb(target));
    for (const name of ['ann', 'bea', 'cy', 'dan']) {
      const row = await opened.db.insertInto('users').values(userRow(name)).returning('id').executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    repo = new MessageStoreRepo(opened.db, opened.dialect);
    messages = new MessageRepo(opened.db);
    conversations = new ConversationRepo(opened.db);
  });
  afterAll(() => close());

  let n = 0;
  const message = (from: number, chatType: number, to: number, chatKey: string): NewMessage => ({
    client_id: `c-${++n}`,
    from_user: from,
    chat_type: chatType,
    to_id: to,
    chat_key: chatKey,
    type: 'text',
    content: `hello ${n}`,
    extends: '',
    at: '',
    pid: 0,
    file_id: 0,
    is_undo: 0,
    is_deleted: 0,
    create_time: Date.now(),
  });

  it('creates both rows of a private chat with its first message, then counts unread on the receiver’s only', async () => {
    const [ann, bea] = ids as [number, number];
    const key = pairKey(ann, bea);
    const first = await repo.store(message(ann, ChatType.Private, bea, key), [], 0);
    expect(first.row).toMatchObject({
      id: expect.any(Number),
      from_user: ann,
      chat_key: key,
      content: expect.any(String),
    });
    expect(first.row.search_text).toContain('hello');
    expect(first.sides.get(ann)).toMatchObject({ unread: 0, read_msg_id: first.row.id });
    expect(first.sides.get(bea)).toMatchObject({ unread: 1, read_msg_id: 0 });
    await repo.store(message(ann, ChatType.Private, bea, key), [], 0);
    const reply = await repo.store(message(bea, ChatType.Private, ann, key), [], 0);
    // Bea answered: her row is read up to her reply, ann's counts the one unread.
    expect(reply.sides.get(bea)).toMatchObject({ unread: 0, read_msg_id: reply.row.id });
    expect(reply.sides.get(ann)).toMatchObject({ unread: 1, read_msg_id: first.row.id + 1 });
    expect(await messages.byId(reply.row.id)).toEqual(reply.row);
  });

  it('writes one row in my own chat and none for a group but the mentions', async () => {
    const [ann, bea, cy] = ids as [number, number, number];
    const own = await repo.store(message(ann, ChatType.Self, ann, selfKey(ann)), [], 0);
    expect([...own.sides.keys()]).toEqual([ann]);
    expect(own.sides.get(ann)).toMatchObject({ unread: 0, read_msg_id: own.row.id });

    const key = 'g:7';
    await conversations.upsertConversation(bea, key, { read_msg_id: 0 });
    await conversations.upsertConversation(cy, key, { read_msg_id: 0 });
    const said = await repo.store(message(ann, ChatType.Group, 7, key), [bea, ann, bea], 0);
    expect(said.sides.size).toBe(0);
    expect((await conversations.conversation(bea, key))?.is_at).toBe(1);
    expect((await conversations.conversation(cy, key))?.is_at).toBe(0);
    // The sender never mentions themselves.
    expect(await conversations.conversation(ann, key)).toBeUndefined();
  });

  it('commits ids in the order they are given: a reader paging by id while sends run misses none', async () => {
    const [ann, bea, cy, dan] = ids as [number, number, number, number];
    const start = Number(
      (
        await opened.db
          .selectFrom('messages')
          .select((eb) => eb.fn.max('id').as('m'))
          .executeTakeFirst()
      )?.m ?? 0,
    );
    const pairs: Array<[number, number]> = [
      [ann, bea],
      [cy, dan],
      [bea, cy],
      [dan, ann],
    ];
    let sending = true;
    const seen: number[] = [];
    const reader = (async () => {
      let cursor = start;
      for (;;) {
        const done = !sending;
        const page = await opened.db
          .selectFrom('messages')
          .select('id')
          .where('id', '>', cursor)
          .orderBy('id')
          .execute();
        for (const { id } of page) seen.push(id);
        if (page.length) cursor = page[page.length - 1]!.id;
        if (done) return;
        await new Promise((r) => setImmediate(r));
      }
    })();
    const sent = await Promise.all(
      Array.from({ length: 400 }, (_, i) => {
        const [from, to] = pairs[i % pairs.length]!;
        return repo.store(message(from, ChatType.Private, to, pairKey(from, to)), [], 0);
      }),
    );
    sending = false;
    await reader;
    const stored = sent.map((s) => s.row.id).sort((a, b) => a - b);
    expect(seen).toEqual(stored);
    // Each pair's receiver counts every message of the run: the newest of cy's 100 to dan (sends
    // take the lock in their own order, not the order they were asked in) says so, as does the row.
    const newest = sent.filter((s) => s.row.from_user === cy).reduce((a, b) => (b.row.id > a.row.id ? b : a));
    expect(newest.sides.get(dan)!.unread).toBe(100);
    expect((await conversations.conversation(dan, pairKey(cy, dan)))!.unread).toBe(100);
  });
});
