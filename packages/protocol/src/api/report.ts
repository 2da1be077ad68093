import * as z from 'zod';
import type { Message } from '../entities';
import { REPORT_PICTURES_MAX, REPORT_TEXT_MAX } from '../limits';
import { personText, rowId } from './fields';
import { groupId } from './group';

/**
 * Reports (投诉, docs/protocol.md §3 `/enterprise/report`) and the operators' queue of them
 * (docs/protocol.md §8 `/manage/report*`): what a user reports, why, and what an admin does about it.
 */

/** What is reported: a person, a message, a group or a moments post. */
export const REPORT_KINDS = ['user', 'message', 'group', 'moment'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/**
 * Why, in WeChat's order: spam or advertising, fraud, pornographic or vulgar content, harassment or
 * abuse, something illegal, a rumour, an infringement of rights, a stolen or impersonating account,
 * something else (the text says what). The client words each as `report.reason.<code>`.
 */
export const REPORT_REASONS = [
  'spam',
  'fraud',
  'porn',
  'harassment',
  'illegal',
  'rumor',
  'infringement',
  'impersonation',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** Where a report stands: new, opened by an admin, or closed with its outcome. */
export const REPORT_STATUSES = ['new', 'review', 'closed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/**
 * What an admin does with a report: warn the reported person (a system notice), take the message or
 * post down for everyone, mute the person across the server for `minutes`, disable their account,
 * dissolve the group, or dismiss it with no action. Every one closes the report and tells the reporter.
 */
export const REPORT_ACTIONS = ['warn', 'takedown', 'mute', 'disable', 'dissolve', 'dismiss'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

/** The actions that fit a kind of report: a takedown needs a message or a post, dissolving a group. */
export function reportActionsFor(kind: ReportKind): ReportAction[] {
  return REPORT_ACTIONS.filter(
    (a) => (a !== 'takedown' || kind === 'message' || kind === 'moment') && (a !== 'dissolve' || kind === 'group'),
  );
}

/** The server-wide mutes an admin chooses from, minutes: an hour, a day, a week, thirty days. */
export const REPORT_MUTE_MINUTES = [60, 1_440, 10_080, 43_200] as const;

/**
 * `/enterprise/report` (投诉): reports something the caller can see, with a reason, optional text
 * and pictures. Something the caller cannot see is answered as a missing one (UserNotFound,
 * MessageNotFound, NotMember, MomentNotFound). Reporting the same thing again while the first report
 * is still open answers that report; what it saw (the message with those around it, the post, the
 * profile) is kept as it was when first reported.
 */
export const ReportBody = z.object({
  /** What is reported. */
  kind: z.enum(REPORT_KINDS),
  /** Its id: a user id, a msg_id, `group-<n>` (or the group's number), a post id. */
  id: z.union([groupId, rowId]),
  /** Why: one of REPORT_REASONS. */
  reason: z.enum(REPORT_REASONS),
  /** What the reporter adds, up to REPORT_TEXT_MAX characters. */
  text: personText(REPORT_TEXT_MAX).optional(),
  /** Pictures the reporter uploaded (their own uploads, images), up to REPORT_PICTURES_MAX. */
  file_ids: z.array(rowId).max(REPORT_PICTURES_MAX).optional(),
});

/** What the reporter is told at once: their report, which admins will look at. */
export interface ReportReceipt {
  id: number;
  status: ReportStatus;
  create_time: number;
}

const page = z.coerce.number().int().min(1).max(100_000).optional();
const limit = z.coerce.number().int().min(1).max(100).optional();

/** `/manage/reportList`: a page of reports, newest first, of one status when given. */
export const ManageReportListBody = z.object({
  status: z.enum(REPORT_STATUSES).optional(),
  page,
  limit,
});

/** `/manage/reportGet`: one report with what it concerns; opening a new one puts it in review. */
export const ManageReportGetBody = z.object({ id: rowId });

/**
 * `/manage/reportAct`: acts on a report and closes it. Of two admins acting on one report at once,
 * one wins; the other is answered ReportClosed.
 */
export const ManageReportActBody = z
  .object({
    id: rowId,
    /** One of reportActionsFor(the report's kind). */
    action: z.enum(REPORT_ACTIONS),
    /** For `mute`: how long, minutes (up to a year). */
    minutes: z.coerce.number().int().min(1).max(525_600).optional(),
  })
  .refine((b) => b.action !== 'mute' || b.minutes !== undefined, {
    path: ['minutes'],
    message: 'a mute needs minutes',
  });

/** A person as the queue names them. */
export interface ReportPerson {
  user_id: number;
  account: string;
  realname: string;
  avatar: string;
}

/** A picture a reporter attached. */
export interface ReportPicture {
  file_id: number;
  src: string;
  thumb: string;
}

/**
 * What a report saw when it was made: the message with up to REPORT_CONTEXT_EACH_SIDE messages on
 * either side as the reporter could see them, the post, or the public profile of a person or group.
 */
export type ReportEvidence =
  | { kind: 'message'; msg_id: number; chat_name: string; messages: Message[] }
  | {
      kind: 'moment';
      post: {
        id: number;
        user_id: number;
        realname: string;
        content: string;
        pictures: ReportPicture[];
        create_time: number;
      };
    }
  | { kind: 'user'; user: { user_id: number; account: string; realname: string; avatar: string; motto: string } }
  | {
      kind: 'group';
      group: { group_id: string; name: string; avatar: string; owner_id: number; notice: string; member_count: number };
    };

/** `/enterprise/report/mine`: my reports and where each stands, and the reports about me an admin upheld with a warning. */
export const ReportMineBody = z.object({});

/** One of my reports, or (`warned`) a report about me that ended in a warning; the reporter is never named. */
export interface MyReport {
  id: number;
  kind: ReportKind;
  reason: ReportReason;
  status: ReportStatus;
  action: ReportAction | '';
  /** True: a report about me, upheld with a warning. */
  warned: boolean;
  create_time: number;
  closed_time: number;
}

/** A report in the queue. */
export interface ManagedReport {
  id: number;
  kind: ReportKind;
  /** The reported user id, msg_id, post id, or `group-<n>`. */
  target_id: number | string;
  reason: ReportReason;
  text: string;
  reporter: ReportPerson;
  /** Whom the actions on people concern: the person, the message's sender, the post's author, the group's owner. */
  target_user: ReportPerson;
  status: ReportStatus;
  /** What was done, once closed. */
  action: ReportAction | '';
  /** The admin who opened or closed it; 0 the command line, null none yet. */
  handler_id: number | null;
  handler_name: string;
  create_time: number;
  closed_time: number;
}

/** One report opened: the queue's row, the reporter's pictures and what it saw. */
export interface ManagedReportDetail extends ManagedReport {
  pictures: ReportPicture[];
  evidence: ReportEvidence;
}
