import {
  reportActionsFor,
  type AuditAction,
  type ManagedReport,
  type ManagedReportDetail,
  type ReportAction,
  type ReportEvidence,
  type ReportKind,
  type ReportReason,
  type ReportStatus,
  type RouteInput,
} from '@sparrow/protocol';
import { AppError } from '../../errors';
import { parseJson } from '../../lib/text';
import type { Repos } from '../../repos';
import { storageUrl } from '../../storage/storage';
import { paging, type Actor, type AdminService } from '../admin';
import type { ReportLine } from './presenter';
import type { ReportListRow, ReportRow } from './repo';

/**
 * What only a running server does with a report: take a message or a post down for everyone
 * (MessageService.takeDown, MomentService.takeDown: both push) and push a notice. The command line
 * has none of it: there takedowns are refused, and notices wait in `reportMine`.
 */
export interface ReportLive {
  takeDownMessage(msgId: number): Promise<boolean>;
  takeDownPost(postId: number): Promise<boolean>;
  notify(userId: number, line: ReportLine): Promise<void>;
}

/** What ReportQueue is built from. */
export interface ReportQueueParts {
  repos: Pick<Repos, 'reports'>;
  now: () => number;
}

const AUDIT: Record<ReportAction, AuditAction> = {
  warn: 'reportWarn',
  takedown: 'reportTakedown',
  mute: 'reportMute',
  disable: 'reportDisable',
  dissolve: 'reportDissolve',
  dismiss: 'reportDismiss',
};

/**
 * The operators' queue of reports (docs/protocol.md §8 `/manage/report*`, and `npm run admin -- report`):
 * listing it, opening one (which puts a new one in review), and acting on it. An action closes the
 * report first, as a compare-and-set, so that of two admins acting at once exactly one acts; an
 * action that then fails opens it again. Every action is audited and the reporter told.
 */
export class ReportQueue {
  constructor(
    private readonly ctx: ReportQueueParts,
    private readonly admin: Pick<AdminService, 'audit' | 'users' | 'groups'>,
    private readonly live?: ReportLive,
  ) {}

  /** A page of reports, newest first, of one status when given. */
  async list(body: RouteInput<'manageReportList'>): Promise<{ items: ManagedReport[]; total: number }> {
    const { offset, limit } = paging(body);
    const { rows, total } = await this.ctx.repos.reports.page(body.status, offset, limit);
    return { items: rows.map(managed), total };
  }

  /** One report with its pictures and what it saw; a new one goes into review with the admin as its handler. */
  async open(id: number, actor: Actor): Promise<ManagedReportDetail> {
    const { reports } = this.ctx.repos;
    if (!(await reports.byId(id))) throw new AppError('ReportNotFound', {}, { fields: ['id'] });
    await reports.review(id, actor.adminId);
    const row = (await reports.listedById(id))!;
    const pictures = (await reports.files(id))
      .filter((f) => f.attached === 1)
      .map((f) => ({
        file_id: f.file_id,
        src: storageUrl(f.storage_key),
        thumb: f.thumb || storageUrl(f.storage_key),
      }));
    return { ...managed(row), pictures, evidence: parseJson(row.evidence) as unknown as ReportEvidence };
  }

  /** Acts on a report and closes it; ReportClosed when it was closed already (by another admin's call first). */
  async act(body: RouteInput<'manageReportAct'>, actor: Actor): Promise<ManagedReport> {
    const { reports } = this.ctx.repos;
    const row = await reports.byId(body.id);
    if (!row) throw new AppError('ReportNotFound', {}, { fields: ['id'] });
    if (row.status === 'closed') throw new AppError('ReportClosed');
    const kind = row.kind as ReportKind;
    if (!reportActionsFor(kind).includes(body.action))
      throw new AppError('ReportActionInvalid', {}, { fields: ['action'] });
    if ((body.action === 'takedown' || body.action === 'dissolve') && !this.live)
      throw new Error('taking content down and dissolving a group need a running server: use the console');
    if (!(await reports.close(row.id, body.action, actor.adminId, this.ctx.now()))) throw new AppError('ReportClosed');
    const detail: Record<string, unknown> = { kind, target_id: row.target_id, user_id: row.target_user_id };
    try {
      await this.apply(row, body, actor, detail);
    } catch (err) {
      // The action's own error is the answer, whatever reopening meets.
      await reports.reopen(row).catch(() => undefined);
      throw err;
    }
    await this.admin.audit.append(actor, AUDIT[body.action], `report:${row.id}`, detail);
    await this.live?.notify(row.reporter_id, { event: 'reportClosed', report_id: row.id, kind, action: body.action });
    return managed((await reports.listedById(row.id))!);
  }

  private async apply(
    row: ReportRow,
    body: RouteInput<'manageReportAct'>,
    actor: Actor,
    detail: Record<string, unknown>,
  ): Promise<void> {
    switch (body.action) {
      case 'warn':
        await this.live?.notify(row.target_user_id, {
          event: 'reportWarning',
          report_id: row.id,
          kind: row.kind,
          reason: row.reason,
        });
        return;
      case 'takedown': {
        const live = this.live!;
        detail.removed =
          row.kind === 'message' ? await live.takeDownMessage(row.target_id) : await live.takeDownPost(row.target_id);
        return;
      }
      case 'mute': {
        const until = this.ctx.now() + body.minutes! * 60_000;
        await this.ctx.repos.reports.muteUser(row.target_user_id, until);
        detail.minutes = body.minutes;
        detail.until = until;
        return;
      }
      case 'disable':
        await this.admin.users.setUserStatus(row.target_user_id, false, actor);
        return;
      case 'dissolve':
        await this.admin.groups.disbandGroup(`group-${row.target_id}`, actor);
        return;
      case 'dismiss':
        return;
    }
  }
}

/** A report as the queue shows it. */
function managed(r: ReportListRow): ManagedReport {
  const kind = r.kind as ReportKind;
  return {
    id: r.id,
    kind,
    target_id: kind === 'group' ? `group-${r.target_id}` : r.target_id,
    reason: r.reason as ReportReason,
    text: r.text,
    reporter: {
      user_id: r.reporter_id,
      account: r.reporter_account ?? '',
      realname: r.reporter_name ?? '',
      avatar: r.reporter_avatar ?? '',
    },
    target_user: {
      user_id: r.target_user_id,
      account: r.target_account ?? '',
      realname: r.target_name ?? '',
      avatar: r.target_avatar ?? '',
    },
    status: r.status as ReportStatus,
    action: r.action as ReportAction | '',
    handler_id: r.handler_id,
    handler_name: r.handler_name ?? '',
    create_time: r.create_time,
    closed_time: r.closed_time,
  };
}
