import type { SearchHit } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import { msg } from '../../chat/test-messages';
import { cutAt, groupHits, wordSpans } from './hits';

/** A hit of `msg(…)` (me = user 1) with the conversation the server names. */
function hit(msgId: number, opts: Parameters<typeof msg>[1] = {}): SearchHit {
  const m = msg(msgId, opts);
  return {
    ...m,
    contactInfo: { id: String(m.is_group ? m.toContactId : m.fromUser.id) } as SearchHit['contactInfo'],
    highlight: [],
  };
}

describe('search hits', () => {
  it('cuts a text at the spans, skipping spans outside it or overlapping', () => {
    expect(cutAt('我想喝咖啡了', [[3, 5]])).toEqual([
      { text: '我想喝', marked: false, at: 0 },
      { text: '咖啡', marked: true, at: 3 },
      { text: '了', marked: false, at: 5 },
    ]);
    expect(
      cutAt('coffee', [
        [0, 3],
        [2, 4],
        [4, 99],
        [5, 5],
      ]).map((p) => [p.text, p.marked]),
    ).toEqual([
      ['cof', true],
      ['fee', false],
    ]);
    expect(cutAt('', [])).toEqual([]);
  });

  it('finds every word of a search in a name, case ignored, overlaps merged', () => {
    expect(wordSpans('Coffee at the Coffee Bar', 'coffee')).toEqual([
      [0, 6],
      [14, 20],
    ]);
    expect(wordSpans('外滩咖啡馆', '咖啡 啡馆')).toEqual([[2, 5]]);
    expect(wordSpans('report.pdf', '  ')).toEqual([]);
  });

  it('groups hits by conversation in the order of their newest, counting when all are loaded', () => {
    const hits = [
      hit(9, { from: 2 }),
      hit(8, { group: true, from: 3 }),
      hit(7, { from: 1, to: 2 }),
      hit(5, { from: 4 }),
    ];
    const chats = groupHits(hits, 1, true);
    expect(chats.map((c) => [c.key, c.newest.msg_id, c.count])).toEqual([
      ['2', 9, 2],
      ['group-1', 8, 1],
      ['4', 5, 1],
    ]);
    expect(groupHits(hits, 1, false).map((c) => [c.count, c.loaded])).toEqual([
      [null, 2],
      [null, 1],
      [null, 1],
    ]);
  });
});
