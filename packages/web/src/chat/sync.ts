import type { Message } from '@sparrow/protocol';

export interface SyncDeps {
  /** One `sync` page: messages after `afterId`, ascending, and how many remain. */
  fetch(afterId: number, limit: number): Promise<{ messages: Message[]; remaining: number }>;
  /** The cursor saved for this user, or null on a first start. */
  loadCursor(): number | null;
  saveCursor(msgId: number): void;
  /** Where to start when there is no cursor: the newest msg_id the client can find. */
  initialCursor(): Promise<number>;
  /** Each page, as it arrives. */
  onMessages(messages: Message[]): void;
  /** After a catch-up that went through (the conversation list is refreshed here). */
  onCaughtUp?(received: number): void;
}

export const SYNC_PAGE = 200;
/** A safety net against a server that keeps saying "more" without moving forward. */
const MAX_PAGES = 500;

/**
 * The catch-up after every socket (re)bind: `sync` pages from the saved cursor until none
 * remain. Only `sync` pages move the cursor: a push may arrive while an earlier one was lost,
 * so a push's msg_id proves nothing about what came before it. Requests made while a run is
 * going ask for one more run after it, never two at once.
 */
export class SyncRunner {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(private readonly deps: SyncDeps) {}

  /** Runs a catch-up now, or once more after the current one. */
  request(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.runOnce();
      } catch {
        // Offline again, or the server is restarting: the next bind runs it again.
        return;
      }
    } while (this.again);
  }

  private async runOnce(): Promise<void> {
    const saved = this.deps.loadCursor();
    let cursor: number = saved ?? (await this.deps.initialCursor());
    if (saved === null) this.deps.saveCursor(cursor);
    let received = 0;
    for (let i = 0; i < MAX_PAGES; i++) {
      const { messages, remaining } = await this.deps.fetch(cursor, SYNC_PAGE);
      if (messages.length) {
        this.deps.onMessages(messages);
        received += messages.length;
        const last: number = messages.reduce((max, m) => Math.max(max, m.msg_id), cursor);
        if (last > cursor) {
          cursor = last;
          this.deps.saveCursor(cursor);
        }
      }
      if (remaining <= 0 || messages.length === 0) break;
    }
    this.deps.onCaughtUp?.(received);
  }
}
