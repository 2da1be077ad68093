import type { AppContext } from '../../context';
import { ok } from '../../http/envelope';
import { publicBase } from '../../http/public-url';
import type { Handlers } from '../../http/route';
import type { UserService } from './service';

/** Profiles: getUserInfo, searchUser, updateUserInfo. */
export function userRoutes(ctx: AppContext, users: UserService): Handlers {
  return {
    getUserInfo: async ({ body, session }) => users.profile(body.user_id, session),
    searchUser: async ({ body, session }) => users.search(body.keywords, session),
    updateUserInfo: async ({ body, session, req }) =>
      ok(await users.update(body, session, publicBase(ctx.env, req)), { msg: 'ok.saved' }),
  };
}
