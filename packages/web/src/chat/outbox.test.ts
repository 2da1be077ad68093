import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { idbLocalStore } from './local-store';
import type { OutboxRecord } from './outbox';

let n = 0;
function record(user_id: number, id: string, order: number, over: Partial<OutboxRecord> = {}): OutboxRecord {
  return {
    user_id,
    key: '2',
    id,
    order,
    sendTime: order,
    body: { id, toContactId: 2, is_group: 0, type: 'text', content: id, at: [], pid: 0, extends: {} },
    ...over,
  };
}

describe('the outbox of the local store', () => {
  it('answers a user’s messages in the order sent, and no one else’s', async () => {
    const box = idbLocalStore(`outbox-test-${++n}`, `old-outbox-${n}`).outbox;
    await box.put(record(1, 'b', 2));
    await box.put(record(1, 'a', 1));
    await box.put(record(7, 'theirs', 0));
    expect((await box.list(1)).map((r) => r.id)).toEqual(['a', 'b']);
    expect((await box.list(7)).map((r) => r.id)).toEqual(['theirs']);
  });

  it('writes a message again in place, removes it, and clears one user only', async () => {
    const box = idbLocalStore(`outbox-test-${++n}`, `old-outbox-${n}`).outbox;
    await box.put(record(1, 'a', 1));
    await box.put(record(1, 'a', 1, { refusal: 'muted' }));
    expect(await box.list(1)).toMatchObject([{ id: 'a', refusal: 'muted' }]);
    await box.put(record(1, 'b', 2));
    await box.put(record(2, 'c', 3));
    await box.remove(1, 'a');
    expect((await box.list(1)).map((r) => r.id)).toEqual(['b']);
    await box.clear(1);
    expect(await box.list(1)).toEqual([]);
    expect((await box.list(2)).map((r) => r.id)).toEqual(['c']);
  });

  it('keeps a removal behind the write it follows when neither is awaited', async () => {
    const box = idbLocalStore(`outbox-test-${++n}`, `old-outbox-${n}`).outbox;
    const writes = [box.put(record(1, 'a', 1)), box.remove(1, 'a'), box.put(record(1, 'b', 2))];
    await Promise.all(writes);
    expect((await box.list(1)).map((r) => r.id)).toEqual(['b']);
  });
});
