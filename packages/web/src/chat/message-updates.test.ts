import { describe, expect, it, vi } from 'vitest';
import { ConversationEngine, type EngineDeps } from './engine';
import { withEdit, withReaction, withReactions } from './message-updates';
import { msg } from './test-messages';

const ME = 1;
const delta = (emoji: string, user_id: number, on: 0 | 1, count: number) => ({
  toContactId: 2,
  msg_id: 5,
  emoji,
  user_id,
  on,
  count,
});

describe('reaction deltas', () => {
  it('adds a chip, counts it as the server did, marks mine, and drops it at 0', () => {
    let m = msg(5);
    m = withReaction(m, delta('👍', 2, 1, 1), ME);
    expect(m.reactions).toEqual([{ emoji: '👍', count: 1, mine: 0 }]);
    m = withReaction(m, delta('👍', ME, 1, 2), ME);
    m = withReaction(m, delta('❤️', 2, 1, 1), ME);
    expect(m.reactions).toEqual([
      { emoji: '👍', count: 2, mine: 1 },
      { emoji: '❤️', count: 1, mine: 0 },
    ]);
    // Someone else taking theirs back leaves mine marked.
    m = withReaction(m, delta('👍', 2, 0, 1), ME);
    expect(m.reactions?.[0]).toEqual({ emoji: '👍', count: 1, mine: 1 });
    m = withReaction(m, delta('👍', ME, 0, 0), ME);
    m = withReaction(m, delta('❤️', 2, 0, 0), ME);
    expect(m.reactions).toBeUndefined();
  });

  it('changes nothing when the same delta comes twice (my answer, then its push)', () => {
    const once = withReaction(msg(5), delta('😂', ME, 1, 1), ME);
    expect(withReaction(once, delta('😂', ME, 1, 1), ME)).toBe(once);
    expect(withReaction(msg(5), delta('😂', 2, 0, 0), ME).reactions).toBeUndefined();
  });

  it('takes the reactions of an answer as a whole', () => {
    const m = withReactions(msg(5), [{ emoji: '🙏', count: 3, mine: 1 }]);
    expect(m.reactions).toEqual([{ emoji: '🙏', count: 3, mine: 1 }]);
    expect(withReactions(m, []).reactions).toBeUndefined();
  });
});

describe('edit deltas', () => {
  it('puts the new text in and marks it edited; an older edit arriving late is ignored', () => {
    const edited = withEdit(msg(5), {
      toContactId: 2,
      msg_id: 5,
      id: 'uuid-5',
      content: 'new',
      edited: 20,
      sendTime: 1,
    });
    expect(edited).toMatchObject({ content: 'new', edited: 20 });
    const late = withEdit(edited, {
      toContactId: 2,
      msg_id: 5,
      id: 'uuid-5',
      content: 'older',
      edited: 10,
      sendTime: 1,
    });
    expect(late).toBe(edited);
  });
});

/** A conversation with user 2, its history read through `fetchPage`. */
function conversation(fetchPage: EngineDeps['fetchPage']): ConversationEngine {
  return new ConversationEngine({
    me: { user_id: ME, realname: 'me', avatar: '' },
    target: { key: '2', toContactId: 2, is_group: 0 },
    fetchPage,
    send: vi.fn(),
    markRead: vi.fn(async () => null),
    classify: () => 'retry',
    onRefused: vi.fn(),
    newId: () => 'local',
    now: () => 1_800_000_000_000,
    pageSize: 30,
  });
}

describe('an open conversation', () => {
  it('applies reaction and edit deltas to the message shown, without fetching, and ignores others', async () => {
    const history = [msg(4), msg(5, { from: ME, to: 2 })];
    const fetchPage = vi.fn(async () => history);
    const engine = conversation(fetchPage);
    await engine.start();
    const calls = fetchPage.mock.calls.length;
    const redraws = vi.fn();
    engine.subscribe(redraws);
    engine.applyReaction(delta('👍', 2, 1, 1));
    engine.applyEdit({ toContactId: 2, msg_id: 5, id: 'uuid-5', content: 'fixed', edited: 9, sendTime: 1 });
    engine.applyReaction({ ...delta('👍', 2, 1, 1), msg_id: 99 });
    expect(engine.message(5)).toMatchObject({ content: 'fixed', edited: 9, reactions: [{ emoji: '👍', count: 1 }] });
    expect(redraws).toHaveBeenCalledTimes(2);
    engine.setReactions(5, []);
    expect(engine.message(5)?.reactions).toBeUndefined();
    expect(fetchPage.mock.calls.length).toBe(calls);
  });
});

describe('after the socket was down', () => {
  it('reads the newest page again, taking the reactions and edits it missed', async () => {
    let page = [msg(4), msg(5, { from: ME, to: 2 })];
    const engine = conversation(vi.fn(async () => page));
    await engine.start();
    page = [
      msg(4),
      { ...msg(5, { from: ME, to: 2 }), content: 'edited', edited: 7, reactions: [{ emoji: '🙏', count: 2, mine: 0 }] },
    ];
    await engine.refreshNewest();
    expect(engine.message(5)).toMatchObject({ content: 'edited', edited: 7, reactions: [{ emoji: '🙏', count: 2 }] });
  });
});
