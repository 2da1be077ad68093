import type { ServerConfig } from '../../config';
import { ok } from '../../http/envelope';
import { publicBase } from '../../http/public-url';
import type { Handlers } from '../../http/route';
import type { UserService } from './service';

/** Profiles: getUserInfo, searchUser, updateUserInfo, setStatus, and the Raingad settings dialog's save. */
export function userRoutes(ctx: { env: ServerConfig }, users: UserService): Handlers {
  return {
    getUserInfo: async ({ body, session }) => users.profile(body.user_id, session),
    searchUser: async ({ body, session }) => users.search(body.keywords, session),
    updateUserInfo: async ({ body, session, req }) =>
      ok(await users.update(body, session, publicBase(ctx.env, req)), { msg: 'ok.saved' }),
    setStatus: async ({ body, session, req }) =>
      ok(await users.setStatus(body, session, publicBase(ctx.env, req)), { msg: 'ok.saved' }),
    // Sparrow's client keeps its app settings on the device; a Raingad client saves its dialog here.
    userSetting: async ({ body, session }) => {
      await users.saveSetting(body, session);
      return ok(null, { msg: 'ok.saved' });
    },
  };
}
