import { negotiateLocale } from '@sparrow/protocol';
import { AppError } from '../../errors';
import type { UserRow } from '../user';

/**
 * Refuses a user an administrator muted across the server (a report's outcome) until the mute ends:
 * messages in every chat, moments posts and comments. The error names the time in their language.
 */
export function requireUnmuted(user: Pick<UserRow, 'muted_until' | 'language'>, now: number): void {
  const until = user.muted_until;
  if (until <= now) return;
  const locale = negotiateLocale(user.language || undefined);
  throw new AppError(
    'ServerMuted',
    { until: new Date(until).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' }) },
    { muted_until: until },
  );
}
