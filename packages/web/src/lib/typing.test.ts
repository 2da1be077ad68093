import { TYPING_MIN_GAP_MS, TYPING_PAUSE_MS, TYPING_RESEND_MS, TYPING_SHOWN_MS } from '@sparrow/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { heard, spoke, typingIn, typingTitle, TypingSignal, type Typers } from './typing';

describe('typing signal (when the composer sends typing 1 and 0)', () => {
  let sent: Array<0 | 1>;
  let signal: TypingSignal;
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    signal = new TypingSignal((state) => sent.push(state));
  });
  afterEach(() => vi.useRealTimers());

  it('the first keystroke starts; fast keys within the interval send nothing more', () => {
    signal.input();
    for (let i = 0; i < 20; i++) {
      vi.advanceTimersByTime(150);
      signal.input();
    }
    expect(sent).toEqual([1]);
  });

  it('while keys keep coming, resends 1 once per interval, never sooner than the server accepts', () => {
    const at: number[] = [];
    const start = Date.now();
    signal = new TypingSignal((state) => {
      sent.push(state);
      at.push(Date.now() - start);
    });
    for (let t = 0; t <= 12_000; t += 500) {
      signal.input();
      vi.advanceTimersByTime(500);
    }
    expect(sent).toEqual([1, 1, 1, 1]);
    expect(at).toEqual([0, TYPING_RESEND_MS, 2 * TYPING_RESEND_MS, 3 * TYPING_RESEND_MS]);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(TYPING_MIN_GAP_MS);
  });

  it('a pause sends 0 once, after TYPING_PAUSE_MS without a key', () => {
    signal.input();
    vi.advanceTimersByTime(TYPING_PAUSE_MS - 1);
    expect(sent).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([1, 0]);
    vi.advanceTimersByTime(60_000);
    expect(sent).toEqual([1, 0]);
  });

  it('a key during the pause pushes the stop back', () => {
    signal.input();
    vi.advanceTimersByTime(TYPING_PAUSE_MS - 100);
    signal.input();
    vi.advanceTimersByTime(TYPING_PAUSE_MS - 100);
    expect(sent).toEqual([1, 1]);
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([1, 1, 0]);
  });

  it('stop (sent, blurred, left) sends 0 at once and cancels the pause; typing again starts again', () => {
    signal.input();
    signal.stop();
    expect(sent).toEqual([1, 0]);
    vi.advanceTimersByTime(TYPING_PAUSE_MS * 2);
    expect(sent).toEqual([1, 0]);
    signal.input();
    expect(sent).toEqual([1, 0, 1]);
  });

  it('stop while not typing sends nothing', () => {
    signal.stop();
    signal.stop();
    expect(sent).toEqual([]);
  });
});

describe('who is typing (the receiver)', () => {
  const now = 1_000_000;

  it('a 1 holds for TYPING_SHOWN_MS, a fresh one extends it, a 0 ends it', () => {
    let t: Typers = heard({}, '7', 7, 1, now);
    expect(typingIn(t, '7', now)).toEqual({ ids: [7], until: now + TYPING_SHOWN_MS });
    expect(typingIn(t, '7', now + TYPING_SHOWN_MS).ids).toEqual([]);
    t = heard(t, '7', 7, 1, now + 4_000);
    expect(typingIn(t, '7', now + TYPING_SHOWN_MS).ids).toEqual([7]);
    t = heard(t, '7', 7, 0, now + 5_000);
    expect(typingIn(t, '7', now + 5_000)).toEqual({ ids: [], until: null });
    expect(t).toEqual({});
  });

  it('a message from the typer clears them in that chat only', () => {
    let t = heard(heard({}, 'group-3', 7, 1, now), 'group-3', 8, 1, now);
    t = heard(t, '7', 7, 1, now);
    t = spoke(t, 'group-3', 7);
    expect(typingIn(t, 'group-3', now).ids).toEqual([8]);
    expect(typingIn(t, '7', now).ids).toEqual([7]);
    expect(spoke(t, 'group-3', 99)).toBe(t);
  });

  it('the earliest lapse is when the title must change next', () => {
    const t = heard(heard({}, 'group-3', 7, 1, now), 'group-3', 8, 1, now + 2_000);
    expect(typingIn(t, 'group-3', now + 1)).toEqual({ ids: [7, 8], until: now + TYPING_SHOWN_MS });
  });
});

describe('the chat title while someone types', () => {
  const names: Record<number, string> = { 7: '张三', 8: '李四', 9: '王五' };
  const nameOf = (id: number) => names[id] ?? '';

  it('nobody: the chat keeps its name', () => {
    expect(typingTitle([], false, nameOf)).toBeNull();
    expect(typingTitle([], true, nameOf)).toBeNull();
  });

  it('a private chat says 对方正在输入…, without a name', () => {
    expect(typingTitle([7], false, nameOf)).toEqual({ key: 'typing.peer' });
  });

  it('a group names the typer, or the first and how many others', () => {
    expect(typingTitle([7], true, nameOf)).toEqual({ key: 'typing.one', name: '张三' });
    expect(typingTitle([8, 7, 9], true, nameOf)).toEqual({ key: 'typing.many', name: '李四', count: 2 });
  });

  it('a typer whose name is not known yet (members still loading) is someone', () => {
    expect(typingTitle([42], true, nameOf)).toEqual({ key: 'typing.someone' });
    expect(typingTitle([42, 7], true, nameOf)).toEqual({ key: 'typing.someone' });
  });
});
