import { ok } from '../../http/envelope';
import type { Handlers } from '../../http/route';
import type { DeviceService } from './devices';

/** 登录设备: the caller's sessions, ending one or all the others (docs/protocol.md §3). */
export function deviceRoutes(devices: DeviceService): Handlers {
  return {
    sessions: async ({ session }) => devices.list(session.userId, { currentId: session.id }),
    sessionEnd: async ({ body, session }) => {
      await devices.end(session.userId, body.session_id, 'device');
      return ok(null, { msg: 'ok.sessionEnded' });
    },
    sessionEndOthers: async ({ session }) =>
      ok(await devices.endOthers(session.userId, session.id), { msg: 'ok.sessionsEnded' }),
  };
}
