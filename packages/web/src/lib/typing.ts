import { TYPING_PAUSE_MS, TYPING_RESEND_MS, TYPING_SHOWN_MS } from '@sparrow/protocol';

/** What a typing signal needs of the world: the clock and one timer. */
export interface TypingClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const browserClock: TypingClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * When the composer tells a chat that I am typing (对方正在输入…, docs/protocol.md §4 `typing`): the first
 * change of the box sends 1; further changes send 1 again once TYPING_RESEND_MS have passed since the last
 * (so at most one frame per interval, however fast the keys); 0 goes once after TYPING_PAUSE_MS without a
 * change, or at `stop` (the message sent, the box emptied or left, the chat closed). `stop` while not
 * typing sends nothing.
 */
export class TypingSignal {
  private typing = false;
  private sentAt = 0;
  private pause: unknown = null;

  constructor(
    private readonly send: (state: 0 | 1) => void,
    private readonly clock: TypingClock = browserClock,
  ) {}

  /** The box changed. */
  input(): void {
    const now = this.clock.now();
    if (!this.typing || now - this.sentAt >= TYPING_RESEND_MS) {
      this.typing = true;
      this.sentAt = now;
      this.send(1);
    }
    if (this.pause !== null) this.clock.clearTimeout(this.pause);
    this.pause = this.clock.setTimeout(() => this.stop(), TYPING_PAUSE_MS);
  }

  /** I stopped typing here. */
  stop(): void {
    if (this.pause !== null) this.clock.clearTimeout(this.pause);
    this.pause = null;
    if (!this.typing) return;
    this.typing = false;
    this.send(0);
  }
}

/** Who is typing where, as the `typing` pushes said: by chat key, then by user id, until when (ms). */
export type Typers = Record<string, Record<number, number>>;

/** The typers after a `typing` push of `from` in chat `key` at `now`: a 1 holds for TYPING_SHOWN_MS, a 0 ends it. */
export function heard(typers: Typers, key: string, from: number, state: 0 | 1, now: number): Typers {
  const chat = { ...typers[key] };
  if (state === 1) chat[from] = now + TYPING_SHOWN_MS;
  else delete chat[from];
  return withChat(typers, key, chat);
}

/** The typers after a message of `from` arrived in chat `key`: they are no longer typing it. */
export function spoke(typers: Typers, key: string, from: number): Typers {
  if (typers[key]?.[from] === undefined) return typers;
  const chat = { ...typers[key] };
  delete chat[from];
  return withChat(typers, key, chat);
}

function withChat(typers: Typers, key: string, chat: Record<number, number>): Typers {
  const next = { ...typers };
  if (Object.keys(chat).length === 0) delete next[key];
  else next[key] = chat;
  return next;
}

/** Those typing in a chat at `now`, in the order they started, and when the first of them lapses. */
export function typingIn(typers: Typers, key: string, now: number): { ids: number[]; until: number | null } {
  const chat = typers[key] ?? {};
  const live = Object.entries(chat).filter(([, until]) => until > now);
  return {
    ids: live.map(([id]) => Number(id)),
    until: live.length ? Math.min(...live.map(([, until]) => until)) : null,
  };
}

/**
 * What a chat says under its name while someone types: in a private chat 对方正在输入…, in a group
 * who (the first typer, and how many others), or 有人正在输入… while the typer's name is unknown.
 */
export type TypingTitle =
  | { key: 'typing.peer' }
  | { key: 'typing.someone' }
  | { key: 'typing.one'; name: string }
  | { key: 'typing.many'; name: string; count: number };

/**
 * What a chat says while `ids` type (null: nothing). A private chat says only that the peer types;
 * a group names the first typer (`nameOf`, '' when not known yet), and how many others.
 */
export function typingTitle(
  ids: readonly number[],
  isGroup: boolean,
  nameOf: (id: number) => string,
): TypingTitle | null {
  const first = ids[0];
  if (first === undefined) return null;
  if (!isGroup) return { key: 'typing.peer' };
  const name = nameOf(first);
  if (!name) return { key: 'typing.someone' };
  return ids.length === 1 ? { key: 'typing.one', name } : { key: 'typing.many', name, count: ids.length - 1 };
}
