import { APP_VERSION, type ManageStats } from '@sparrow/protocol';
import { requireLive, type LiveParts } from './live';
import type { AdminRepo } from './repo';

const DAY_MS = 86_400_000;
const CHART_DAYS = 30;

const utcDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The dashboard (`/manage/stats`), which only a running server can answer. */
export class AdminDashboard {
  constructor(
    private readonly repo: AdminRepo,
    private readonly now: () => number,
    private readonly live?: LiveParts,
  ) {}

  /** The dashboard: users (all, online now), groups, messages per day for 30 days, storage, version, uptime. */
  async stats(): Promise<ManageStats> {
    const live = requireLive(this.live);
    const now = this.now();
    const today = Math.floor(now / DAY_MS);
    const first = today - CHART_DAYS + 1;
    const [totals, perDay, signedIn] = await Promise.all([
      this.repo.totals(),
      this.repo.messagesPerDay(first * DAY_MS),
      this.repo.withLiveSessions(now),
    ]);
    const online = signedIn.length ? (await live.realtime.online(signedIn)).size : 0;
    const messagesPerDay = Array.from({ length: CHART_DAYS }, (_, i) => ({
      day: utcDay(first + i),
      count: perDay.get(first + i) ?? 0,
    }));
    return {
      ...totals,
      online,
      messagesToday: perDay.get(today) ?? 0,
      messagesPerDay,
      version: APP_VERSION,
      uptimeS: Math.floor(live.uptimeS()),
    };
  }
}
