import type { PushFrame } from '@sparrow/protocol';
import type { AnnouncementRepo } from '../system';
import type { Realtime } from '../../realtime/realtime';

/**
 * System announcements are written by the admin command, a separate process. Each server
 * watches the table and pushes what is new to its own sockets, so the push reaches everyone
 * whether or not the nodes share a bus.
 */
export class AnnouncementWatcher {
  private lastId = -1;
  private timer: NodeJS.Timeout | undefined;
  constructor(
    private readonly announcements: AnnouncementRepo,
    private readonly realtime: Realtime,
  ) {}

  /** Pushes announcements newer than the last seen; the first call only records where we are. */
  async check(): Promise<void> {
    if (this.lastId < 0) {
      this.lastId = await this.announcements.newestId();
      return;
    }
    const rows = await this.announcements.after(this.lastId);
    for (const row of rows) {
      const frame: PushFrame = { type: 'adminNotice', data: row, time: Math.floor(Date.now() / 1000) };
      this.realtime.hub.broadcast(frame);
      this.lastId = row.id;
    }
  }

  start(ms: number): void {
    void this.check().catch(() => undefined);
    if (ms <= 0) return;
    this.timer = setInterval(() => void this.check().catch(() => undefined), ms);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
