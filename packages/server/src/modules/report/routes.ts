import type { FastifyRequest } from 'fastify';
import { ok } from '../../http/envelope';
import type { Handlers } from '../../http/route';
import type { Actor } from '../admin';
import type { Session } from '../auth';
import type { ReportQueue } from './queue';
import type { ReportService } from './service';

const actor = (session: Session, req: FastifyRequest): Actor => ({ adminId: session.userId, ip: req.ip });

/** `/enterprise/report/*` (投诉) and the operators' queue, `/manage/report*`. */
export function reportRoutes(reports: ReportService, queue: ReportQueue): Handlers {
  return {
    report: async ({ body, session }) => ok(await reports.report(session, body), { msg: 'ok.reported' }),
    reportMine: async ({ session }) => reports.mine(session),
    manageReportList: async ({ body }) => {
      const { items, total } = await queue.list(body);
      return ok(items, { count: total, page: body.page });
    },
    manageReportGet: async ({ body, session, req }) => queue.open(body.id, actor(session, req)),
    manageReportAct: async ({ body, session, req }) => queue.act(body, actor(session, req)),
  };
}
