import type { AppContext } from '../../context';
import { ok } from '../../http/envelope';
import type { Handlers } from '../../http/route';
import type { UserService } from './service';

/** Profiles: getUserInfo, searchUser, updateUserInfo. */
export function userRoutes(_ctx: AppContext, users: UserService): Handlers {
  return {
    getUserInfo: async ({ body, session }) => users.profile(body.user_id, session),
    searchUser: async ({ body, session }) => users.search(body.keywords, session),
    updateUserInfo: async ({ body, session }) => ok(await users.update(body, session), { msg: 'ok.saved' }),
  };
}
