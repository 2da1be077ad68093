import { socketOf, type Handlers } from '../../http/route';
import type { CallService } from './service';

/** `/enterprise/im/sendToMsg` and `/enterprise/im/iceServers`: calls. */
export function callRoutes(_ctx: unknown, calls: CallService): Handlers {
  return {
    sendToMsg: async ({ body, session, req }) => calls.signal(session, body, socketOf(req)),
    iceServers: async ({ session }) => calls.iceServers(session),
  };
}
