import type { AuditAction, AuditRow, RouteInput } from '@sparrow/protocol';
import type { AdminRepo } from './repo';

/** Who acts: an admin's user id and address, or the server's command line (id 0). */
export interface Actor {
  adminId: number;
  ip: string;
}

export const COMMAND_LINE: Actor = { adminId: 0, ip: 'cli' };

const DEFAULT_LIMIT = 20;

/** Where a page of an admin list starts and how long it is (pages count from 1). */
export const paging = (body: { page?: number | undefined; limit?: number | undefined }) => {
  const limit = body.limit ?? DEFAULT_LIMIT;
  return { offset: ((body.page ?? 1) - 1) * limit, limit };
};

/** The audit log: every administrative change, with who made it and from where, and the log read back. */
export class AuditLog {
  constructor(
    private readonly repo: AdminRepo,
    private readonly now: () => number,
  ) {}

  async append(actor: Actor, action: AuditAction, target: string, detail: Record<string, unknown> = {}) {
    await this.repo.audit({
      admin_id: actor.adminId,
      action,
      target,
      detail: JSON.stringify(detail),
      ip: actor.ip.slice(0, 64),
      create_time: this.now(),
    });
  }

  /** Audit rows newest first. */
  async list(body: RouteInput<'manageAuditList'>): Promise<{ items: AuditRow[]; total: number }> {
    const { offset, limit } = paging(body);
    const { rows, total } = await this.repo.auditPage({ adminId: body.admin_id, action: body.action }, offset, limit);
    return { items: rows.map((r) => ({ ...r, admin_name: r.admin_name ?? '' })), total };
  }
}
