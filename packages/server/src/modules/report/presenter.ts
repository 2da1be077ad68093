import type { EventLine, Message } from '@sparrow/protocol';
import { systemMessage } from '../im';
import type { UserRow } from '../user';

/** The lines of a report's notices: its outcome to the reporter, a warning to the one reported. */
export type ReportLine = Extract<EventLine, { event: 'reportClosed' | 'reportWarning' }>;

/**
 * A report's notice from `system` to a user, as a `simple` push: never stored as a message (the
 * report keeps it; `reportMine` lists it) and carrying no contact row, so that the `system` row of
 * friend requests stays as it is.
 */
export function reportNotice(recipient: UserRow, line: ReportLine, now: number): Message {
  return systemMessage(recipient, `report-${line.report_id}-${line.event}`, line, now);
}
