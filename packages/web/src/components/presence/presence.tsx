import { lastSeenLabel, liveStatus, statusUntilLabel, type Label, type UserStatus } from '@sparrow/protocol';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import './presence.css';

/** What a person's presence is read from: a contact row, a profile, or a push applied to either. */
export interface PresenceFacts {
  status?: UserStatus | null | undefined;
  /** Absent when the reader does not see it. */
  is_online?: 0 | 1 | undefined;
  last_seen?: number | undefined;
}

const say = (t: TFunction, label: Label) => t(label.key, label.params);

/** 在线, 最近在线 10分钟前, or null when neither is mine to see. */
export function presenceText(t: TFunction, facts: PresenceFacts, now: number): string | null {
  if (facts.is_online === 1) return t('presence.online');
  if (!facts.last_seen) return null;
  return t('presence.lastSeen', { when: say(t, lastSeenLabel(facts.last_seen, now)) });
}

/** A status as one line: its emoji, its text, and with `withUntil` when it ends. */
export function statusText(t: TFunction, status: UserStatus, now: number, withUntil = false): string {
  const words = [status.emoji, status.text].filter(Boolean).join(' ');
  if (!withUntil || status.until === null) return words;
  return `${words} · ${say(t, statusUntilLabel(status.until, now))}`;
}

/**
 * A private chat's subtitle: the person's status while it lasts, else 在线 or 最近在线 …; null for
 * nothing to say.
 */
export function chatSubtitle(t: TFunction, facts: PresenceFacts, now: number): string | null {
  const status = liveStatus(facts.status, now);
  return status ? statusText(t, status, now) : presenceText(t, facts, now);
}

/** A contact row's status, small, under or beside the name; nothing once it ended. */
export function StatusLine({
  status,
  now,
  withUntil = false,
}: {
  status: UserStatus | null | undefined;
  now: number;
  withUntil?: boolean;
}) {
  const { t } = useTranslation();
  const live = liveStatus(status, now);
  if (!live) return null;
  return <span className="status-line">{statusText(t, live, now, withUntil)}</span>;
}
