import type { FastifyBaseLogger } from 'fastify';

/**
 * The pushes of one server for things that change in bursts (a poll's votes, a chain's lines), by
 * id: a change asks for one, which goes at once when that id's last went out `intervalMs` ago or
 * more, else when that time is up, with the thing as it stands then; the changes asking meanwhile
 * ride along. `now` sends at once (a close). `stop` sends nothing more and answers once the pushes
 * under way are done, before the database closes.
 */
export class ThrottledPushes {
  private readonly waiting = new Map<number, NodeJS.Timeout>();
  private readonly sent = new Map<number, number>();
  private readonly sending = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
    /** What the id names, in the log line of a push that failed. */
    private readonly what: string,
  ) {}

  /** `send` reads the thing when it runs, so that a later push carries every change before it. */
  changed(id: number, send: () => Promise<void>): void {
    if (this.stopped || this.waiting.has(id)) return;
    const wait = Math.max(0, (this.sent.get(id) ?? 0) + this.intervalMs - Date.now());
    const timer = setTimeout(() => {
      this.waiting.delete(id);
      this.run(id, send).catch((err: unknown) => this.log.error({ err, [this.what]: id }, 'push failed'));
    }, wait);
    timer.unref();
    this.waiting.set(id, timer);
  }

  async now(id: number, send: () => Promise<void>): Promise<void> {
    const timer = this.waiting.get(id);
    if (timer) clearTimeout(timer);
    this.waiting.delete(id);
    if (!this.stopped) await this.run(id, send);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    await Promise.allSettled([...this.sending]);
  }

  private run(id: number, send: () => Promise<void>): Promise<void> {
    const at = Date.now();
    this.sent.set(id, at);
    // Forget ids quiet for longer than the interval: their next push goes at once anyway.
    if (this.sent.size > 1_000) for (const [k, t] of this.sent) if (at - t > this.intervalMs) this.sent.delete(k);
    const sending = send();
    this.sending.add(sending);
    const done = () => void this.sending.delete(sending);
    sending.then(done, done);
    return sending;
  }
}
