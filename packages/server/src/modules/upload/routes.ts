import type { AppContext } from '../../context';
import { ok } from '../../http/envelope';
import type { Handlers } from '../../http/route';
import { UserService } from '../user/service';
import { UploadService } from './service';

/** `/common/upload/*`. */
export function uploadRoutes(ctx: AppContext): Handlers {
  const uploads = new UploadService(ctx);
  const users = new UserService(ctx);
  return {
    uploadAvatar: async ({ req, session }) => {
      const url = await uploads.avatar(req);
      await users.setAvatar(session.userId, url);
      return ok(url, { msg: 'ok.saved' });
    },
  };
}
