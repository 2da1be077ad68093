import type { Message } from '@sparrow/protocol';
import { describe, expect, it, vi } from 'vitest';
import {
  ConversationEngine,
  FIRST_INDEX,
  type EngineDeps,
  type PageQuery,
  type SendBody,
  type Outgoing,
  type Transfer,
} from './engine';
import { msg, withdrawn } from './test-messages';

/** Resolvable promises the test settles by hand. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

class Refused extends Error {}

/** Me = user 1, chatting with user 2; the server holds `history` (msg_ids ascending). */
function setup(history: Message[] = [], over: Partial<EngineDeps> = {}) {
  const sends: SendBody[] = [];
  const transfers: Transfer[] = [];
  const sendResults: Array<ReturnType<typeof deferred<Message>>> = [];
  let n = 0;
  const deps: EngineDeps = {
    me: { user_id: 1, realname: 'me', avatar: '' },
    target: { key: '2', toContactId: 2, is_group: 0 },
    fetchPage: vi.fn(async ({ last_id, limit }: { last_id?: number; limit: number }) => {
      const older = history.filter((m) => last_id === undefined || m.msg_id < last_id);
      return older.slice(-limit);
    }),
    send: vi.fn((body: SendBody, transfer: Transfer) => {
      sends.push(body);
      transfers.push(transfer);
      const d = deferred<Message>();
      sendResults.push(d);
      return d.promise;
    }),
    markRead: vi.fn(async () => null),
    classify: (e) => (e instanceof Refused ? 'refused' : 'retry'),
    onRefused: vi.fn(),
    newId: () => `local-${++n}`,
    now: () => 1_800_000_000_000,
    pageSize: 3,
    ...over,
  };
  const engine = new ConversationEngine(deps);
  const ids = () => engine.getSnapshot().rows.map((r) => r.message.msg_id);
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { engine, deps, sends, transfers, sendResults, ids, flush };
}

const stored = (body: SendBody, msgId: number): Message => ({
  ...msg(msgId, { from: 1, to: 2, id: body.id, content: body.content }),
});

describe('ConversationEngine', () => {
  it('loads the newest page, then older pages in front without losing its place', async () => {
    const history = [1, 2, 3, 4, 5, 6, 7].map((i) => msg(i));
    const { engine, ids } = setup(history);
    expect(engine.getSnapshot().status).toBe('idle');
    const loading = engine.start();
    expect(engine.getSnapshot().status).toBe('loading');
    await loading;
    expect(engine.getSnapshot().status).toBe('ready');
    expect(ids()).toEqual([5, 6, 7]);
    expect(engine.getSnapshot().hasOlder).toBe(true);
    expect(engine.getSnapshot().firstItemIndex).toBe(FIRST_INDEX);

    await engine.loadOlder();
    expect(ids()).toEqual([2, 3, 4, 5, 6, 7]);
    expect(engine.getSnapshot().firstItemIndex).toBe(FIRST_INDEX - 3);
    await engine.loadOlder();
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(engine.getSnapshot().hasOlder).toBe(false);
    expect(engine.getSnapshot().firstItemIndex).toBe(FIRST_INDEX - 4);
    await engine.loadOlder();
    expect(ids()).toHaveLength(7);
  });

  it('shows a failed first page as an error and loads again on start()', async () => {
    let fail = true;
    const { engine, ids } = setup([msg(1)], {
      fetchPage: async () => {
        if (fail) throw new Error('offline');
        return [msg(1)];
      },
    });
    await engine.start();
    expect(engine.getSnapshot().status).toBe('error');
    fail = false;
    await engine.start();
    expect(engine.getSnapshot().status).toBe('ready');
    expect(ids()).toEqual([1]);
  });

  it('shows a sent message at once as sending, then confirms it by its id', async () => {
    const { engine, sends, sendResults, flush } = setup([msg(1)]);
    await engine.start();
    const id = engine.send({ type: 'text', content: 'hello' });
    let rows = engine.getSnapshot().rows;
    expect(rows.map((r) => [r.message.content, r.state, r.mine])).toEqual([
      ['message 1', 'sent', false],
      ['hello', 'sending', true],
    ]);
    const keyWhileSending = rows[1]!.key;
    expect(sends[0]).toMatchObject({ id, toContactId: 2, is_group: 0, type: 'text', content: 'hello', at: [], pid: 0 });

    sendResults[0]!.resolve(stored(sends[0]!, 9));
    await flush();
    rows = engine.getSnapshot().rows;
    expect(rows.map((r) => [r.message.msg_id, r.state])).toEqual([
      [1, 'sent'],
      [9, 'sent'],
    ]);
    expect(rows[1]!.key).toBe(keyWhileSending);
  });

  it('marks a message failed on a network error and retries it with the same id', async () => {
    const { engine, sends, sendResults, flush } = setup();
    await engine.start();
    const id = engine.send({ type: 'text', content: 'hi' });
    sendResults[0]!.reject(new Error('network'));
    await flush();
    expect(engine.getSnapshot().rows.map((r) => r.state)).toEqual(['failed']);

    engine.retry(id);
    expect(engine.getSnapshot().rows.map((r) => r.state)).toEqual(['sending']);
    expect(sends.map((s) => s.id)).toEqual([id, id]);
    sendResults[1]!.resolve(stored(sends[1]!, 4));
    await flush();
    expect(engine.getSnapshot().rows.map((r) => [r.message.msg_id, r.state])).toEqual([[4, 'sent']]);
  });

  it('discards a failed message on request, and only a failed one', async () => {
    const { engine, sendResults, flush } = setup();
    await engine.start();
    const failed = engine.send({ type: 'text', content: 'lost' });
    const sending = engine.send({ type: 'text', content: 'on its way' });
    sendResults[0]!.reject(new Error('network'));
    await flush();
    engine.discard(sending);
    engine.discard(failed);
    expect(engine.getSnapshot().rows.map((r) => [r.message.content, r.state])).toEqual([['on its way', 'sending']]);
  });

  it('keeps a message the server refused as failed, with the reason, and says why', async () => {
    const { engine, deps, sendResults, flush } = setup([], { reasonOf: (e) => (e as Error).message });
    await engine.start();
    engine.send({ type: 'text', content: 'not allowed' });
    const refusal = new Refused('muted');
    sendResults[0]!.reject(refusal);
    await flush();
    expect(engine.getSnapshot().rows.map((r) => [r.message.content, r.state, r.refusal])).toEqual([
      ['not allowed', 'failed', 'muted'],
    ]);
    expect(deps.onRefused).toHaveBeenCalledWith(refusal);
  });

  it('keeps one copy when the push of my message beats the send answer', async () => {
    const { engine, sends, sendResults, ids, flush } = setup();
    await engine.start();
    engine.send({ type: 'text', content: 'race' });
    const copy = stored(sends[0]!, 12);
    engine.receive(copy);
    expect(engine.getSnapshot().rows.map((r) => [r.message.msg_id, r.state])).toEqual([[12, 'sent']]);
    sendResults[0]!.resolve(copy);
    await flush();
    expect(ids()).toEqual([12]);
  });

  it('merges pushes and sync pages by msg_id: duplicates once, gaps filled in order', async () => {
    const { engine, ids } = setup([msg(1), msg(2)]);
    await engine.start();
    engine.receive(msg(5));
    engine.receive(msg(5));
    expect(ids()).toEqual([1, 2, 5]);
    // The pushes of 3 and 4 were lost; the catch-up brings them with 5 again.
    engine.receiveMany([msg(3), msg(4), msg(5)]);
    expect(ids()).toEqual([1, 2, 3, 4, 5]);
  });

  it('ignores messages of other conversations and system notices', async () => {
    const { engine, ids } = setup();
    await engine.start();
    expect(engine.receive(msg(3, { from: 7 }))).toBe(false);
    expect(engine.receive(msg(4, { from: 2, group: true }))).toBe(false);
    expect(engine.receive({ ...msg(0, { from: 'system' }) })).toBe(false);
    expect(engine.receive(msg(5, { from: 1, to: 2 }))).toBe(true);
    expect(ids()).toEqual([5]);
  });

  it('leaves older messages outside the loaded window to their page', async () => {
    const history = [10, 11, 12, 13].map((i) => msg(i));
    const { engine, ids } = setup(history);
    await engine.start();
    expect(ids()).toEqual([11, 12, 13]);
    engine.receive(msg(5));
    expect(ids()).toEqual([11, 12, 13]);
  });

  it('replaces a withdrawn message with its event line and removes deleted ones', async () => {
    const { engine, ids } = setup([msg(1), msg(2), msg(3)]);
    await engine.start();
    engine.applyUndo({ ...withdrawn(2), content: 'user 2 withdrew a message' });
    expect(engine.getSnapshot().rows[1]!.message).toMatchObject({ msg_id: 2, type: 'event' });
    engine.applyUndo(withdrawn(99));
    expect(ids()).toEqual([1, 2, 3]);
    engine.remove(3);
    expect(ids()).toEqual([1, 2]);
  });

  it('tracks how far the peer has read and marks read once per newer message', async () => {
    const { engine, deps } = setup([msg(1, { from: 1, to: 2, is_read: 1 }), msg(2, { from: 1, to: 2 })]);
    await engine.start();
    expect(engine.getSnapshot().peerReadTo).toBe(1);
    engine.markPeerRead(2);
    expect(engine.getSnapshot().peerReadTo).toBe(2);
    engine.markPeerRead(1);
    expect(engine.getSnapshot().peerReadTo).toBe(2);

    engine.readAll();
    engine.readAll();
    expect(deps.markRead).toHaveBeenCalledTimes(1);
    expect(deps.markRead).toHaveBeenCalledWith(2);
    engine.receive(msg(3));
    engine.readAll();
    expect(deps.markRead).toHaveBeenLastCalledWith(3);
  });

  it('clears history on this device and keeps it hidden when messages come again', async () => {
    const { engine, ids } = setup([msg(1), msg(2)]);
    await engine.start();
    expect(engine.clearHistory()).toBe(2);
    expect(ids()).toEqual([]);
    engine.receiveMany([msg(1), msg(2), msg(3)]);
    expect(ids()).toEqual([3]);
  });

  it('notifies subscribers with a new snapshot on every change', async () => {
    const { engine } = setup([msg(1)]);
    const seen: number[] = [];
    const stop = engine.subscribe(() => seen.push(engine.getSnapshot().rows.length));
    await engine.start();
    engine.receive(msg(2));
    stop();
    engine.receive(msg(3));
    expect(seen).toEqual([0, 1, 2]);
  });
  it('sends a file with its message: progress while it uploads, the stored message after', async () => {
    const onStored = vi.fn();
    const { engine, sends, transfers, sendResults, flush } = setup([], { onStored });
    await engine.start();
    const file = new Blob(['png']);
    const id = engine.send({
      type: 'image',
      attachment: { file, name: 'lake.png' },
      preview: { url: 'blob:lake', width: 640, height: 420 },
    });
    const row = () => engine.getSnapshot().rows[0]!;
    expect(row()).toMatchObject({ state: 'sending', progress: 0, preview: { width: 640 }, mine: true });
    expect(sends[0]).toMatchObject({ id, type: 'image', content: '', extends: {} });
    expect(transfers[0]!.attachment).toEqual({ file, name: 'lake.png' });

    transfers[0]!.onProgress!(50, 100);
    expect(row().progress).toBe(0.5);
    // Never shown as done before the server answers.
    transfers[0]!.onProgress!(100, 100);
    expect(row().progress).toBe(0.99);

    const message: Message = {
      ...stored(sends[0]!, 7),
      type: 'image',
      extends: { width: 640, height: 420, thumb: '/storage/lake.webp', file_id: 3 },
    };
    sendResults[0]!.resolve(message);
    await flush();
    expect(engine.getSnapshot().rows.map((r) => [r.message.msg_id, r.state, r.progress, r.preview])).toEqual([
      [7, 'sent', null, null],
    ]);
    expect(onStored).toHaveBeenCalledWith(message);
  });

  it('tells the conversation list about every kind of message of mine the server stored', async () => {
    const onStored = vi.fn();
    const { engine, sends, sendResults, flush } = setup([], { onStored });
    await engine.start();
    engine.send({ type: 'text', content: 'hi' });
    engine.send({ type: 'location', extends: { name: 'park' }, preview: { name: 'park' } });
    engine.send({ type: 'emoji', content: '/s.png', extends: { file_id: 3 }, preview: { url: '/s.png' } });
    sends.forEach((body, i) => sendResults[i]!.resolve(stored(body, 20 + i)));
    await flush();
    expect(onStored.mock.calls.map(([m]) => (m as Message).msg_id)).toEqual([20, 21, 22]);
  });

  it('uploads a video poster once, even when the message is sent again', async () => {
    const upload = vi.fn(async () => '/storage/poster.jpg');
    const { engine, sends, sendResults, flush } = setup([], { upload });
    await engine.start();
    const id = engine.send({
      type: 'video',
      extends: { duration: 5 },
      attachment: { file: new Blob(['webm']), name: 'clip.webm', poster: new Blob(['jpg']) },
    });
    await flush();
    expect(sends[0]!.extends).toEqual({ duration: 5, poster: '/storage/poster.jpg' });
    sendResults[0]!.reject(new Error('network'));
    await flush();
    expect(engine.getSnapshot().rows.map((r) => [r.state, r.progress])).toEqual([['failed', null]]);

    engine.retry(id);
    await flush();
    expect(upload).toHaveBeenCalledTimes(1);
    expect(sends.map((s) => [s.id, s.extends.poster])).toEqual([
      [id, '/storage/poster.jpg'],
      [id, '/storage/poster.jpg'],
    ]);
  });

  it('cancels a file on its way, gives up a failed message, and leaves text on its way alone', async () => {
    const { engine, transfers, sendResults, flush } = setup();
    await engine.start();
    const text = engine.send({ type: 'text', content: 'on its way' });
    const upload = engine.send({ type: 'file', attachment: { file: new Blob(['x']), name: 'a.pdf' } });
    const card = engine.send({ type: 'contact', extends: { id: 9 }, preview: { name: 'Carol' } });
    engine.cancel(text);
    engine.cancel(upload);
    expect(transfers[1]!.signal.aborted).toBe(true);
    sendResults[1]!.reject(new Error('aborted'));
    sendResults[2]!.reject(new Error('network'));
    await flush();
    expect(engine.getSnapshot().rows.map((r) => [r.message.type, r.state])).toEqual([
      ['text', 'sending'],
      ['contact', 'failed'],
    ]);
    expect(engine.hasPending()).toBe(true);
    engine.cancel(card);
    sendResults[0]!.reject(new Error('network'));
    await flush();
    engine.discard(text);
    expect(engine.getSnapshot().rows).toEqual([]);
    expect(engine.hasPending()).toBe(false);
  });

  it('says when I send and when the server has stored what I sent, to show the newest', async () => {
    const { engine, sends, sendResults, flush } = setup();
    await engine.start();
    const seen = vi.fn();
    const stop = engine.onOwnMessage(seen);
    engine.send({ type: 'text', content: 'hi' });
    expect(seen).toHaveBeenCalledTimes(1);
    sendResults[0]!.resolve(stored(sends[0]!, 3));
    await flush();
    expect(seen).toHaveBeenCalledTimes(2);
    stop();
    engine.send({ type: 'text', content: 'again' });
    expect(seen).toHaveBeenCalledTimes(2);
  });
});

/** getMessageList over `history` as the server pages it: before, after or around one msg_id. */
function pages(history: Message[]): EngineDeps['fetchPage'] {
  return vi.fn(async ({ last_id, after_id, around_id, limit }: PageQuery) => {
    if (after_id !== undefined) return history.filter((m) => m.msg_id > after_id).slice(0, limit);
    if (around_id !== undefined) {
      const newer = Math.floor(limit / 2);
      const upTo = history.filter((m) => m.msg_id <= around_id).slice(-(limit - newer));
      return [...upTo, ...history.filter((m) => m.msg_id > around_id).slice(0, newer)];
    }
    return history.filter((m) => last_id === undefined || m.msg_id < last_id).slice(-limit);
  });
}

describe('ConversationEngine opened at a message', () => {
  const history = Array.from({ length: 20 }, (_, i) => msg(i + 1));

  it('loads the page around it, then older pages above and newer pages below until the newest', async () => {
    const { engine, ids } = setup(history, { fetchPage: pages(history), pageSize: 4 });
    await engine.openAt(10);
    let snap = engine.getSnapshot();
    expect(snap.status).toBe('ready');
    expect(ids()).toEqual([9, 10, 11, 12]);
    expect(snap.focus).toEqual({ msgId: 10, seq: 1 });
    expect(snap.hasNewer).toBe(true);

    await engine.loadOlder();
    expect(ids().slice(0, 4)).toEqual([5, 6, 7, 8]);
    expect(engine.getSnapshot().firstItemIndex).toBe(FIRST_INDEX - 4);

    await engine.loadNewer();
    expect(ids().at(-1)).toBe(16);
    expect(engine.getSnapshot().hasNewer).toBe(true);
    await engine.loadNewer();
    expect(ids().at(-1)).toBe(20);
    await engine.loadNewer();
    snap = engine.getSnapshot();
    expect(snap.hasNewer).toBe(false);
    expect(ids()).toEqual(Array.from({ length: 16 }, (_, i) => i + 5));
  });

  it('holds pushed messages until the pages below reach the newest, then shows them once', async () => {
    const server = [...history];
    const { engine, ids } = setup(server, { fetchPage: pages(server), pageSize: 4 });
    await engine.openAt(10);
    server.push(msg(21));
    expect(engine.receive(msg(21))).toBe(false);
    expect(ids()).not.toContain(21);

    for (let i = 0; i < 4 && engine.getSnapshot().hasNewer; i++) await engine.loadNewer();
    expect(engine.getSnapshot().hasNewer).toBe(false);
    expect(ids().filter((id) => id === 21)).toHaveLength(1);
    expect(engine.receive(msg(22))).toBe(true);
    expect(ids().at(-1)).toBe(22);
  });

  it('does not mark older history as read; reading counts once the newest is shown', async () => {
    const { engine, deps } = setup(history, { fetchPage: pages(history), pageSize: 4 });
    await engine.openAt(5);
    engine.readAll();
    expect(deps.markRead).not.toHaveBeenCalled();
    while (engine.getSnapshot().hasNewer) await engine.loadNewer();
    engine.readAll();
    expect(deps.markRead).toHaveBeenCalledWith(20);
  });

  it('opens again at a message already loaded without fetching, and at the newest when asked', async () => {
    const fetchPage = pages(history);
    const { engine, ids } = setup(history, { fetchPage, pageSize: 4 });
    await engine.openAt(10);
    const calls = vi.mocked(fetchPage).mock.calls.length;
    await engine.openAt(11);
    expect(vi.mocked(fetchPage).mock.calls.length).toBe(calls);
    expect(engine.getSnapshot().focus).toEqual({ msgId: 11, seq: 2 });

    await engine.openLatest();
    expect(engine.getSnapshot().focus).toBeNull();
    expect(engine.getSnapshot().hasNewer).toBe(false);
    expect(ids()).toEqual([17, 18, 19, 20]);
  });

  it('goes to the newest when I send from older history', async () => {
    const { engine, ids, flush } = setup(history, { fetchPage: pages(history), pageSize: 4 });
    await engine.openAt(5);
    engine.send({ type: 'text', content: 'now' });
    await flush();
    await flush();
    const snap = engine.getSnapshot();
    expect(snap.hasNewer).toBe(false);
    expect(ids().slice(0, 4)).toEqual([17, 18, 19, 20]);
    expect(snap.rows.at(-1)?.message.content).toBe('now');
  });

  it('drops the answer of a page asked before the chat was opened elsewhere', async () => {
    const first = deferred<Message[]>();
    const fetchPage = pages(history);
    const { engine, ids } = setup(history, {
      pageSize: 4,
      fetchPage: (query) =>
        query.around_id === undefined && query.last_id === undefined ? first.promise : fetchPage(query),
    });
    const newest = engine.start();
    const at = engine.openAt(10);
    await at;
    first.resolve(history.slice(-4));
    await newest;
    expect(ids()).toEqual([9, 10, 11, 12]);
    expect(engine.getSnapshot().focus?.msgId).toBe(10);
  });

  it('opens at the newest when the message is not one I may see', async () => {
    const fetchPage = pages(history);
    const { engine, ids } = setup(history, {
      pageSize: 4,
      fetchPage: async (query) => {
        if (query.around_id !== undefined) throw new Refused('not found');
        return fetchPage(query);
      },
    });
    await engine.openAt(99);
    expect(engine.getSnapshot().status).toBe('ready');
    expect(engine.getSnapshot().focus).toBeNull();
    expect(engine.getSnapshot().hasNewer).toBe(false);
    expect(ids()).toEqual([17, 18, 19, 20]);
  });
});

/** The device's outbox as the engine writes it: the last write of each message, until dropped. */
function memoryOutbox() {
  const kept = new Map<string, Outgoing>();
  return {
    kept,
    keep: (o: Outgoing) => void kept.set(o.id, structuredClone(o)),
    drop: (id: string) => void kept.delete(id),
  };
}

describe('ConversationEngine outbox', () => {
  it('keeps every message on the device until the server has it, files and refusals included', async () => {
    const box = memoryOutbox();
    const { engine, sends, sendResults, flush } = setup([], {
      ...box,
      reasonOf: (e) => (e as Error).message,
      upload: async () => '/storage/poster.jpg',
    });
    await engine.start();
    const text = engine.send({ type: 'text', content: 'hi' });
    const video = engine.send({
      type: 'video',
      extends: { duration: 3 },
      attachment: { file: new Blob(['webm']), name: 'clip.webm', poster: new Blob(['jpg']) },
      preview: { url: 'blob:local', durationS: 3 },
    });
    expect([...box.kept.keys()]).toEqual([text, video]);
    await flush();
    // The poster uploaded is written down, so a later try does not upload it again; the local
    // picture is not (it dies with the page), only where it is made from.
    expect(box.kept.get(video)).toMatchObject({ posterSrc: '/storage/poster.jpg', previewOf: 'poster' });
    expect(box.kept.get(video)?.preview).toEqual({ durationS: 3 });
    expect(box.kept.get(video)?.attachment?.name).toBe('clip.webm');

    sendResults[0]!.resolve(stored(sends[0]!, 5));
    sendResults[1]!.reject(new Refused('muted'));
    await flush();
    expect([...box.kept.keys()]).toEqual([video]);
    expect(box.kept.get(video)?.refusal).toBe('muted');
    engine.discard(video);
    expect(box.kept.size).toBe(0);
  });

  it('keeps a held message on the device: not sent again in the session, sent again after a reload, dropped once stored', async () => {
    const box = memoryOutbox();
    const { engine, sends, sendResults, flush } = setup([], box);
    await engine.start();
    const id = engine.send({ type: 'text', content: '审核词' });
    sendResults[0]!.resolve({ ...stored(sends[0]!, 0), held: 1 });
    await flush();
    expect(engine.getSnapshot().rows.map((r) => r.state)).toEqual(['held']);
    expect([...box.kept.keys()]).toEqual([id]);
    // A drain in the session leaves it alone: the server has it.
    await engine.flush();
    expect(sends).toHaveLength(1);

    // After a reload: sent again with its id, and shown as held by the server's answer.
    const again = setup([], box);
    await again.engine.start();
    again.engine.restore([...box.kept.values()]);
    void again.engine.flush();
    expect(again.sends.map((s) => s.id)).toEqual([id]);
    again.sendResults[0]!.resolve({ ...stored(again.sends[0]!, 0), held: 1 });
    await again.flush();
    expect(again.engine.getSnapshot().rows.map((r) => r.state)).toEqual(['held']);
    expect(box.kept.has(id)).toBe(true);
    // Approved: the stored message arrives by its id and takes its place.
    again.engine.receive(stored(again.sends[0]!, 9));
    expect(again.engine.getSnapshot().rows.map((r) => [r.message.msg_id, r.state])).toEqual([[9, 'sent']]);
    expect(box.kept.size).toBe(0);
  });

  it('sends what waits for the connection again in the order sent, one at a time, with the same ids', async () => {
    const box = memoryOutbox();
    const { engine, sends, sendResults, flush } = setup([], box);
    await engine.start();
    const first = engine.send({ type: 'text', content: 'one' });
    sendResults[0]!.reject(new Error('network'));
    await flush();
    // Behind a message that waits, a new one waits its turn instead of overtaking it.
    const second = engine.send({ type: 'text', content: 'two' });
    expect(sends.map((s) => s.id)).toEqual([first, first]);
    sendResults[1]!.reject(new Error('network'));
    await flush();
    expect(engine.getSnapshot().rows.map((r) => [r.message.content, r.state, r.refusal])).toEqual([
      ['one', 'failed', null],
      ['two', 'failed', null],
    ]);
    expect(sends).toHaveLength(2);

    void engine.flush();
    expect(engine.getSnapshot().rows.map((r) => r.state)).toEqual(['sending', 'sending']);
    expect(sends.map((s) => s.id)).toEqual([first, first, first]);
    sendResults[2]!.resolve(stored(sends[2]!, 7));
    await flush();
    expect(sends.map((s) => s.id)).toEqual([first, first, first, second]);
    sendResults[3]!.resolve(stored(sends[3]!, 8));
    await flush();
    expect(engine.getSnapshot().rows.map((r) => [r.message.msg_id, r.state])).toEqual([
      [7, 'sent'],
      [8, 'sent'],
    ]);
    expect(box.kept.size).toBe(0);
  });

  it('stops at the first message that cannot reach the server, and skips refused ones', async () => {
    const { engine, sends, sendResults, flush } = setup([], { reasonOf: (e) => (e as Error).message });
    await engine.start();
    engine.send({ type: 'text', content: 'refused' });
    sendResults[0]!.reject(new Refused('not a friend'));
    await flush();
    engine.send({ type: 'text', content: 'a' });
    engine.send({ type: 'text', content: 'b' });
    sendResults[1]!.reject(new Error('network'));
    sendResults[2]!.reject(new Error('network'));
    await flush();

    void engine.flush();
    expect(sends.map((s) => s.content)).toEqual(['refused', 'a', 'b', 'a']);
    sendResults[3]!.reject(new Error('network'));
    await flush();
    expect(sends).toHaveLength(4);
    expect(engine.getSnapshot().rows.map((r) => [r.message.content, r.state, r.refusal])).toEqual([
      ['refused', 'failed', 'not a friend'],
      ['a', 'failed', null],
      ['b', 'failed', null],
    ]);

    // A refused message goes again only when I ask, in its turn.
    engine.retry(sends[0]!.id);
    expect(sends.map((s) => s.content)).toEqual(['refused', 'a', 'b', 'a', 'refused']);
    sendResults[4]!.reject(new Refused('not a friend'));
    await flush();
    expect(sends.map((s) => s.content)).toEqual(['refused', 'a', 'b', 'a', 'refused', 'a']);
  });

  it('restores kept messages before any sent since, and sends them when asked to flush', async () => {
    const { engine, sends, sendResults, flush } = setup([msg(1)]);
    const body = (id: string, content: string) => ({
      id,
      toContactId: 2 as const,
      is_group: 0,
      type: 'text' as const,
      content,
      at: [],
      pid: 0,
      extends: {},
    });
    const fresh = engine.send({ type: 'text', content: 'new' });
    engine.restore([
      { id: 'kept-2', body: body('kept-2', 'second'), sendTime: 2, order: 2 },
      { id: 'kept-1', body: body('kept-1', 'first'), sendTime: 1, order: 1 },
      { id: 'kept-0', body: body('kept-0', 'refused'), sendTime: 0, order: 0, refusal: 'muted' },
      { id: 'other', body: { ...body('other', 'elsewhere'), toContactId: 3 }, sendTime: 3, order: 3 },
    ]);
    expect(engine.getSnapshot().rows.map((r) => [r.message.content, r.state])).toEqual([
      ['refused', 'failed'],
      ['first', 'failed'],
      ['second', 'failed'],
      ['new', 'sending'],
    ]);
    expect(engine.getSnapshot().outgoing?.message.id).toBe(fresh);
    sendResults[0]!.reject(new Error('network'));
    await flush();

    void engine.flush();
    for (let i = 1; i <= 3; i++) {
      sendResults[i]!.resolve(stored(sends[i]!, 10 + i));
      await flush();
    }
    expect(sends.map((s) => s.content)).toEqual(['new', 'first', 'second', 'new']);
    await engine.start();
    expect(engine.getSnapshot().rows.map((r) => [r.message.content, r.state])).toEqual([
      ['message 1', 'sent'],
      ['first', 'sent'],
      ['second', 'sent'],
      ['new', 'sent'],
      ['refused', 'failed'],
    ]);
    expect(engine.getSnapshot().outgoing?.refusal).toBe('muted');
  });

  describe('the device’s copy while the server is out of reach', () => {
    class Unreachable extends Error {}
    const down = () => Promise.reject(new Unreachable());
    /** What the device kept: 4 and 5 of a longer history. */
    const kept = [msg(4), msg(5)];
    const readStored = vi.fn(async ({ last_id, around_id }: PageQuery, error: unknown) => {
      if (!(error instanceof Unreachable)) return null;
      if (around_id !== undefined) return kept.some((m) => m.msg_id === around_id) ? kept : [];
      return kept.filter((m) => last_id === undefined || m.msg_id < last_id);
    });

    it('opens the chat from it, and keeps asking for older history rather than calling it the end', async () => {
      const { engine, ids } = setup([], { fetchPage: vi.fn(down), readStored });
      await engine.start();
      expect(engine.getSnapshot().status).toBe('ready');
      expect(ids()).toEqual([4, 5]);
      expect(engine.getSnapshot().hasOlder).toBe(true);
      await engine.loadOlder();
      expect(ids()).toEqual([4, 5]);
      expect(engine.getSnapshot()).toMatchObject({ hasOlder: true, loadingOlder: false });
    });

    it('opens at a kept message, or at the newest kept when that one is not kept', async () => {
      const { engine, ids } = setup([], { fetchPage: vi.fn(down), readStored });
      await engine.openAt(5);
      expect(ids()).toEqual([4, 5]);
      expect(engine.getSnapshot().focus?.msgId).toBe(5);
      await engine.openAt(2);
      expect(ids()).toEqual([4, 5]);
      expect(engine.getSnapshot().focus).toBeNull();
    });

    it('is stale until the newest page is read again, which brings what changed and what went while away', async () => {
      let online = false;
      // Back online: 5 was withdrawn and 4 deleted while the device was away, 6 is new.
      const now = [msg(3), withdrawn(5), msg(6)];
      const fetchPage = vi.fn(async ({ limit }: PageQuery) => (online ? now.slice(-limit) : down()));
      const onRemoved = vi.fn();
      const { engine, ids } = setup([], { fetchPage, readStored, onRemoved });
      await engine.start();
      expect(engine.isStale()).toBe(true);
      online = true;
      await engine.refreshStale();
      expect(engine.isStale()).toBe(false);
      expect(ids()).toEqual([5, 6]);
      expect(engine.getSnapshot().rows.find((r) => r.message.msg_id === 5)?.message.type).toBe('event');
      expect(onRemoved).toHaveBeenCalledWith(4);
      await engine.refreshStale();
      expect(fetchPage).toHaveBeenCalledTimes(2);
      // Opened at a kept message: that place is read again from the server.
      online = false;
      const at = setup([], { fetchPage, readStored });
      await at.engine.openAt(5);
      expect(at.engine.isStale()).toBe(true);
      online = true;
      await at.engine.refreshStale();
      expect(at.engine.isStale()).toBe(false);
      expect(at.engine.getSnapshot().rows.find((r) => r.message.msg_id === 5)?.message.type).toBe('event');
      // Read from the server from the start: not stale.
      const fresh = setup([msg(1)]);
      await fresh.engine.start();
      expect(fresh.engine.isStale()).toBe(false);
    });

    it('fails as before when nothing is kept, and never stands in for a refusal', async () => {
      const empty = setup([], { fetchPage: vi.fn(down), readStored: vi.fn(async () => []) });
      await empty.engine.start();
      expect(empty.engine.getSnapshot().status).toBe('error');
      const refused = setup([], { fetchPage: vi.fn(() => Promise.reject(new Refused())), readStored });
      await refused.engine.start();
      expect(refused.engine.getSnapshot().status).toBe('error');
      expect(refused.ids()).toEqual([]);
    });
  });
});
