import type { HeldItem, RouteInput } from '@sparrow/protocol';
import { AppError } from '../../errors';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import type { Actor, AuditLog } from '../admin';
import { HeldStatus, type HeldRow, type KeywordRepo } from './repo';

const DEFAULT_LIMIT = 20;

/** What approving or rejecting does to each kind of held item, given by the modules that own them. */
export interface HeldOutlets {
  /** Stores and fans out an approved message (SendPipeline.deliverHeld); false when its chat is gone. */
  deliverMessage(row: HeldRow): Promise<boolean>;
  /** Gives an approved post its visibility and its audience (MomentService.releasePost). */
  releasePost(postId: number, visibility: number): Promise<boolean>;
  /** Stores an approved comment (MomentService.releaseComment). */
  releaseComment(userId: number, held: { post_id: number; reply_to_user: number; content: string }): Promise<boolean>;
  /** Takes a rejected post down (MomentService.takeDown). */
  removePost(postId: number): Promise<boolean>;
}

/** What ReviewService is built from. */
export interface ReviewParts {
  repos: Pick<Repos, 'keywords' | 'users' | 'groups'>;
  realtime: Pick<Realtime, 'publish'>;
  now: () => number;
}

/**
 * The queue of what review lists held (敏感词): an operator approves an item (a message is then
 * delivered through the send pipeline, a post reaches its audience, a comment is stored) or rejects
 * it (a message is never delivered, a post is taken down); its author is told either way. An item
 * is decided once: the decision is a compare-and-set on its row, so two operators at once, on one
 * node or two, deliver it once and the other is answered HeldDecided.
 */
export class ReviewService {
  private readonly repo: KeywordRepo;

  constructor(
    private readonly ctx: ReviewParts,
    private readonly outlets: HeldOutlets,
    private readonly audit: AuditLog,
  ) {
    this.repo = ctx.repos.keywords;
  }

  async list(body: RouteInput<'manageHeldList'>): Promise<{ items: HeldItem[]; total: number }> {
    const limit = body.limit ?? DEFAULT_LIMIT;
    const { rows, total } = await this.repo.heldPage(body.status ?? 0, ((body.page ?? 1) - 1) * limit, limit);
    const items: HeldItem[] = [];
    for (const r of rows)
      items.push({
        id: r.id,
        kind: r.kind as HeldItem['kind'],
        user_id: r.user_id,
        realname: r.realname ?? '',
        account: r.account ?? '',
        target: await this.targetName(r),
        content: contentOf(r),
        words: JSON.parse(r.words) as string[],
        status: r.status,
        create_time: r.create_time,
        decide_time: r.decide_time,
      });
    return { items, total };
  }

  /** Where a held message goes, by name: the peer or the group. */
  private async targetName(row: HeldRow): Promise<string> {
    if (row.kind !== 'message') return '';
    if (row.chat_type === 1) return (await this.ctx.repos.groups.byId(row.to_id))?.name ?? '';
    if (row.chat_type === 0) return (await this.ctx.repos.users.byId(row.to_id))?.realname ?? '';
    return '';
  }

  async decide(body: RouteInput<'manageHeldDecide'>, actor: Actor): Promise<void> {
    const row = await this.repo.heldById(body.id);
    if (!row) throw new AppError('NotFound', {}, { fields: ['id'] });
    const approve = body.decision === 'approve';
    const status = approve ? HeldStatus.Approved : HeldStatus.Rejected;
    if (!(await this.repo.decide(row.id, status, actor.adminId, this.ctx.now()))) throw new AppError('HeldDecided');
    const done = approve ? await this.delivered(row) : await this.reject(row);
    await this.audit.append(actor, approve ? 'heldApprove' : 'heldReject', `held:${row.id}`, {
      kind: row.kind,
      user_id: row.user_id,
      words: JSON.parse(row.words) as string[],
      ...(!done && { gone: true }),
    });
    await this.ctx.realtime.publish([row.user_id], {
      type: 'held',
      data: {
        kind: row.kind as HeldItem['kind'],
        id: row.client_id,
        toContactId: row.kind === 'message' ? contactIdOf(row) : '',
        decision: approve && done ? 'approve' : 'reject',
      },
    });
  }

  /**
   * Releases an approved item. One that can no longer go where it was going (its chat gone, a rule
   * of sending refusing it now, its file expired) is kept as rejected, so that its author's retry is
   * refused instead of waiting for ever; an unexpected failure puts it back in the queue, to be
   * decided again.
   */
  private async delivered(row: HeldRow): Promise<boolean> {
    let done: boolean;
    try {
      done = await this.release(row);
    } catch (err) {
      if (!(err instanceof AppError)) {
        await this.repo.reopen(row.id);
        throw err;
      }
      done = false;
    }
    if (!done) await this.repo.undeliverable(row.id);
    return done;
  }

  private release(row: HeldRow): Promise<boolean> {
    const body = JSON.parse(row.body) as Record<string, unknown>;
    switch (row.kind) {
      case 'message':
        return this.outlets.deliverMessage(row);
      case 'moment':
        return this.outlets.releasePost(Number(row.client_id), Number(body.visibility));
      default:
        return this.outlets.releaseComment(row.user_id, {
          post_id: Number(body.post_id),
          reply_to_user: Number(body.reply_to_user),
          content: String(body.content),
        });
    }
  }

  private async reject(row: HeldRow): Promise<boolean> {
    if (row.kind === 'moment') return this.outlets.removePost(Number(row.client_id));
    return true;
  }
}

/** A held item's text as its author wrote it (after replace lists). */
function contentOf(row: HeldRow): string {
  const body = JSON.parse(row.body) as { content?: unknown; extends?: { name?: unknown } };
  if (typeof body.content === 'string' && body.content) return body.content;
  return typeof body.extends?.name === 'string' ? body.extends.name : '';
}

/** A held message's conversation as its sender names it. */
function contactIdOf(row: HeldRow): string | number {
  if (row.chat_type === 1) return `group-${row.to_id}`;
  if (row.chat_type === 0) return row.to_id;
  return -1;
}
