import type { Handlers } from '../../http/route';
import type { PushService } from './service';

/** `/enterprise/push/*`. */
export function pushRoutes(push: PushService): Handlers {
  return {
    pushKey: async ({ session }) => push.key(session),
    pushSubscribe: async ({ body, session }) => {
      await push.subscribe(session, body);
      return null;
    },
    pushUnsubscribe: async ({ body, session }) => {
      await push.unsubscribe(session, body.endpoint);
      return null;
    },
    pushSetting: async ({ body, session }) => push.setting(session, body.preview === 1 ? 1 : 0),
  };
}
