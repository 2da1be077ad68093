import type { Bot, BotCreated, BotDelivery } from '@sparrow/protocol';
import { useCallback, useEffect } from 'react';
import { api } from '../../api';
import { useLoaded } from '../../lib/use-loaded';

/** How often a delivery log with a delivery still waiting is read again, ms. */
export const DELIVERIES_POLL_MS = 3_000;
/** The longest the log goes unread while a delivery waits, ms. */
export const DELIVERIES_POLL_MAX_MS = 60_000;

const listBots = (): Promise<Bot[]> => api.botList({}, { silent: true });

/** My bots (机器人) as their pages read them once they open; `setData` shows my own changes at once. */
export function useBots() {
  return useLoaded(listBots);
}

/** A bot without the token `botCreate` and `botReset` answer with: the token is shown once, never kept. */
export function withoutToken(bot: Bot | BotCreated): Bot {
  if (!('token' in bot)) return bot;
  const { token: _shownOnce, ...rest } = bot;
  return rest;
}

/** The list with one bot as the server now answers it. */
export function withBot(list: Bot[] | null, bot: Bot | BotCreated): Bot[] {
  const plain = withoutToken(bot);
  const now = list ?? [];
  return now.some((b) => b.id === plain.id) ? now.map((b) => (b.id === plain.id ? plain : b)) : [...now, plain];
}

/**
 * A bot's delivery log (投递记录), newest first. `refresh` reads it again with the bot (`reloadBot`:
 * its webhook's state and failures follow the deliveries), by itself just after the next try due
 * (within DELIVERIES_POLL_MS to DELIVERIES_POLL_MAX_MS) while a delivery waits, so a retry's outcome
 * shows by itself.
 */
export function useBotDeliveries(botId: number, reloadBot: () => Promise<void>) {
  const fetch = useCallback(
    (): Promise<BotDelivery[]> => api.botDeliveries({ bot_id: botId }, { silent: true }),
    [botId],
  );
  const log = useLoaded(fetch);
  const { reload } = log;
  const refresh = useCallback(async () => {
    await Promise.all([reload(), reloadBot()]);
  }, [reload, reloadBot]);
  // Armed again after each read (a new list), to read just after the next try due: never sooner
  // than DELIVERIES_POLL_MS nor later than DELIVERIES_POLL_MAX_MS; nothing while nothing waits.
  const { data } = log;
  useEffect(() => {
    const nextTry = Math.min(...(data ?? []).filter((d) => d.status === 'pending').map((d) => d.next_at), Infinity);
    if (!Number.isFinite(nextTry)) return;
    const wait = Math.min(Math.max(nextTry - Date.now() + 1_000, DELIVERIES_POLL_MS), DELIVERIES_POLL_MAX_MS);
    const timer = setTimeout(() => void refresh(), wait);
    return () => clearTimeout(timer);
  }, [data, refresh]);
  return { ...log, refresh };
}
