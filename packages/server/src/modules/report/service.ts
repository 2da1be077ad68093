import {
  groupNumber,
  REPORT_CONTEXT_EACH_SIDE,
  type MyReport,
  type ReportAction,
  type ReportEvidence,
  type ReportKind,
  type ReportReason,
  type ReportReceipt,
  type ReportStatus,
  type RouteInput,
} from '@sparrow/protocol';
import { AppError } from '../../errors';
import type { Limits } from '../../lib/limits';
import { parseJson } from '../../lib/text';
import type { Repos } from '../../repos';
import { storageUrl } from '../../storage/storage';
import type { Access } from '../access';
import type { Session } from '../auth';
import type { Hydrator } from '../im';
import { cateOf } from '../upload';
import { openKey, type ReportRow } from './repo';

/** The most of my reports (and warnings) `reportMine` lists. */
const MINE_MAX = 100;

/** What ReportService is built from. */
export interface ReportParts {
  repos: Pick<Repos, 'reports' | 'users' | 'groups' | 'history' | 'moments' | 'files' | 'polls'>;
  access: Access;
  limits: Pick<Limits, 'report'>;
  now: () => number;
}

/** What a report concerns, once found visible to the reporter, and what it saw. */
interface Target {
  targetId: number;
  /** Whom the actions on people concern. */
  userId: number;
  evidence: ReportEvidence;
  /** The files of what it saw, kept stored while the report holds them. */
  files: number[];
}

/** Reports (投诉, docs/protocol.md §3 `/enterprise/report/*`): filing one, and reading where mine stand. */
export class ReportService {
  constructor(
    private readonly ctx: ReportParts,
    private readonly hydrator: Hydrator,
  ) {}

  /**
   * Files a report of something I can see (anything else answers as a missing one), with a snapshot
   * of what I saw; the same report again while it is open answers the first.
   */
  async report(session: Session, body: RouteInput<'report'>): Promise<ReportReceipt> {
    const target = await this.target(session, body.kind, body.id);
    const key = openKey(session.userId, body.kind, target.targetId);
    const open = await this.ctx.repos.reports.byOpenKey(key);
    if (open) return receipt(open);
    await this.ctx.limits.report(session.userId);
    const pictures = [...new Set(body.file_ids ?? [])];
    for (const id of pictures) {
      const { file } = await this.ctx.access.ownFile(session.userId, id);
      if (cateOf(file.ext) !== 2) throw new AppError('Validation', {}, { fields: ['file_ids'] });
    }
    const row = await this.ctx.repos.reports.file({
      reporter_id: session.userId,
      kind: body.kind,
      target_id: target.targetId,
      target_user_id: target.userId,
      reason: body.reason,
      text: body.text ?? '',
      evidence: JSON.stringify(target.evidence),
      status: 'new',
      handler_id: null,
      open_key: key,
      create_time: this.ctx.now(),
      pictures,
      evidenceFiles: target.files,
    });
    return receipt(row);
  }

  /** My reports, and the reports about me an admin upheld with a warning, newest first. */
  async mine(session: Session): Promise<MyReport[]> {
    const [made, warned] = await Promise.all([
      this.ctx.repos.reports.byReporter(session.userId, MINE_MAX),
      this.ctx.repos.reports.warningsOf(session.userId, MINE_MAX),
    ]);
    return [...made.map((r) => mineOf(r, false)), ...warned.map((r) => mineOf(r, true))]
      .sort((a, b) => Math.max(b.create_time, b.closed_time) - Math.max(a.create_time, a.closed_time))
      .slice(0, MINE_MAX);
  }

  /** The reported thing as I can see it, or the error a missing one answers; never my own. */
  private async target(session: Session, kind: ReportKind, id: number | string): Promise<Target> {
    switch (kind) {
      case 'user':
        return this.user(session, id);
      case 'message':
        return this.message(session, id);
      case 'group':
        return this.group(session, id);
      case 'moment':
        return this.moment(session, id);
    }
  }

  private async user(session: Session, id: number | string): Promise<Target> {
    if (typeof id !== 'number') throw new AppError('UserNotFound');
    const chat = await this.ctx.access.chat(session, id);
    if (chat.kind === 'self') throw new AppError('ReportSelf');
    if (chat.kind !== 'private') throw new AppError('UserNotFound');
    const { peer } = chat;
    return {
      targetId: peer.id,
      userId: peer.id,
      evidence: {
        kind: 'user',
        user: {
          user_id: peer.id,
          account: peer.account,
          realname: peer.realname,
          avatar: peer.avatar,
          motto: peer.motto,
        },
      },
      files: [],
    };
  }

  private async message(session: Session, id: number | string): Promise<Target> {
    if (typeof id !== 'number') throw new AppError('MessageNotFound');
    const { row, chat } = await this.ctx.access.message(session, id);
    // An event line, a withdrawn or taken-down message: nothing of anyone's left to report.
    if (row.type === 'event' || row.is_undo) throw new AppError('MessageNotFound');
    if (row.from_user === session.userId) throw new AppError('ReportSelf');
    const floor = await this.ctx.access.floor(session.userId, chat);
    const { rows } = await this.ctx.repos.history.list(
      { userId: session.userId, chatKey: chat.chatKey, floor },
      { limit: REPORT_CONTEXT_EACH_SIDE * 2 + 1, offset: 0, aroundId: row.id },
    );
    // A poll as no one in particular sees it: an anonymous poll's evidence tells no one's choice.
    const pollIds = rows.filter((r) => r.type === 'poll').map((r) => Number(parseJson(r.extends).poll_id));
    const polls = await this.ctx.repos.polls.tallies(pollIds, 0);
    const messages = await this.hydrator.presentMany(rows, session.user, { polls });
    const chatName = chat.kind === 'group' ? chat.group.name : chat.kind === 'private' ? chat.peer.realname : '';
    return {
      targetId: row.id,
      userId: row.from_user,
      evidence: { kind: 'message', msg_id: row.id, chat_name: chatName, messages },
      // The files of every message the snapshot shows (a picture sent before or after, too).
      files: rows.filter((r) => r.file_id && !r.is_undo && !r.is_deleted).map((r) => r.file_id),
    };
  }

  private async group(session: Session, id: number | string): Promise<Target> {
    const number = typeof id === 'number' ? id : groupNumber(id);
    const chat = await this.ctx.access.chat(session, `group-${number}`);
    if (chat.kind !== 'group') throw new AppError('NotMember');
    const { group } = chat;
    if (group.owner_id === session.userId) throw new AppError('ReportSelf');
    return {
      targetId: group.id,
      userId: group.owner_id,
      evidence: {
        kind: 'group',
        group: {
          group_id: `group-${group.id}`,
          name: group.name,
          avatar: group.avatar,
          owner_id: group.owner_id,
          notice: group.notice,
          member_count: await this.ctx.repos.groups.count(group.id),
        },
      },
      files: [],
    };
  }

  private async moment(session: Session, id: number | string): Promise<Target> {
    if (typeof id !== 'number') throw new AppError('MomentNotFound');
    const post = await this.ctx.access.moment(session.userId, id, this.ctx.now());
    if (post.user_id === session.userId) throw new AppError('ReportSelf');
    const [images, author] = await Promise.all([
      this.ctx.repos.moments.images([post.id]),
      this.ctx.repos.users.byId(post.user_id),
    ]);
    return {
      targetId: post.id,
      userId: post.user_id,
      evidence: {
        kind: 'moment',
        post: {
          id: post.id,
          user_id: post.user_id,
          realname: author?.realname ?? '',
          content: post.content,
          pictures: images.map((i) => ({
            file_id: i.file_id,
            src: storageUrl(i.storage_key),
            thumb: i.thumb || storageUrl(i.storage_key),
          })),
          create_time: post.create_time,
        },
      },
      files: images.map((i) => i.file_id),
    };
  }
}

function receipt(row: ReportRow): ReportReceipt {
  return { id: row.id, status: row.status as ReportStatus, create_time: row.create_time };
}

function mineOf(row: ReportRow, warned: boolean): MyReport {
  return {
    id: row.id,
    kind: row.kind as ReportKind,
    reason: row.reason as ReportReason,
    status: row.status as ReportStatus,
    action: row.action as ReportAction | '',
    warned,
    create_time: row.create_time,
    closed_time: row.closed_time,
  };
}
