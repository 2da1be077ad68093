import type { Handlers } from '../../http/route';
import type { PatService } from './pat';
import type { PinService } from './pins';

/** `/enterprise/im/pinMessage`, `pinList` and `patUser`: pinned messages and pats. */
export function pinRoutes(pins: PinService, pats: PatService): Handlers {
  return {
    pinMessage: async ({ body, session }) => {
      await pins.pin(session, body);
      return null;
    },
    pinList: async ({ body, session }) => pins.list(session, body),
    patUser: async ({ body, session }) => pats.pat(session, body),
  };
}
