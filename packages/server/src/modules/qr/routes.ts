import type { AppContext } from '../../context';
import type { Handlers } from '../../http/route';
import type { QrService } from './service';

/** userInfoqq; a group's scanned code is the group module's (groupInfoqq, joinGroup). */
export function qrRoutes(_ctx: AppContext, qr: QrService): Handlers {
  return {
    userInfoqq: async ({ body, session }) => qr.preview(session, body.token),
  };
}
