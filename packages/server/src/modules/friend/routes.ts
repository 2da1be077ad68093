import { ok } from '../../http/envelope';
import type { Handlers } from '../../http/route';
import { type FriendService } from './service';

/** `/enterprise/friend/*` and the contact list. */
export function friendRoutes(_ctx: unknown, friends: FriendService): Handlers {
  return {
    friendAdd: async ({ body, session }) => {
      const outcome = await friends.add(body, session);
      return ok(null, { msg: outcome === 'friends' ? 'ok.friendsNow' : 'ok.requestSent' });
    },
    friendIndex: async ({ body, session }) => {
      const { items, total } = await friends.list(body, session);
      return ok(items, { count: total, page: body.page });
    },
    friendUpdate: async ({ body, session }) => {
      await friends.answer(body, session);
      return ok(null, { msg: body.status === 1 ? 'ok.friendsNow' : 'ok.declined' });
    },
    friendDel: async ({ body, session }) => {
      await friends.remove(body, session);
      return null;
    },
    friendSetNickname: async ({ body, session }) => {
      await friends.setNickname(body, session);
      return ok(null, { msg: 'ok.saved' });
    },
  };
}
