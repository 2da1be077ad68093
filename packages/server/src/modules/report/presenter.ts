import { translate, PICTURES, type EventLine, type Message } from '@sparrow/protocol';
import { eventText, readerOf } from '../im';
import type { UserRow } from '../user';

/** The lines of a report's notices: its outcome to the reporter, a warning to the one reported. */
export type ReportLine = Extract<EventLine, { event: 'reportClosed' | 'reportWarning' }>;

/**
 * A report's notice from `system` to a user, in that user's language, as a `simple` push: never
 * stored as a message (the report keeps it; `reportMine` lists it) and carrying no contact row, so
 * that the `system` row of friend requests stays as it is.
 */
export function reportNotice(recipient: UserRow, line: ReportLine, now: number): Message {
  const reader = readerOf(recipient);
  const system = translate(reader.locale, 'contact.system');
  return {
    id: `report-${line.report_id}-${line.event}`,
    msg_id: 0,
    type: 'event',
    content: eventText(line, reader, ''),
    sendTime: now,
    toContactId: 'system',
    toUser: recipient.id,
    is_group: 2,
    status: 'succeed',
    is_read: 0,
    at: [],
    pid: 0,
    fromUser: { id: 'system', user_id: 'system', realname: '', displayName: system, avatar: PICTURES.notice },
    extends: line,
  };
}
