import { ok } from '../../http/envelope';
import { socketOf, type Handlers } from '../../http/route';
import type { FavoriteService } from './service';

/** `/enterprise/favorite/*`. */
export function favoriteRoutes(_ctx: unknown, favorites: FavoriteService): Handlers {
  return {
    favoriteAdd: async ({ body, session, req }) =>
      ok(await favorites.add(session, body, socketOf(req)), { msg: 'ok.saved' }),
    favoriteList: async ({ body, session }) => {
      const { items, total } = await favorites.list(session, body);
      return ok(items, { count: total, page: body.page });
    },
    favoriteDel: async ({ body, session, req }) => {
      await favorites.remove(session, body.ids, socketOf(req));
      return null;
    },
    favoriteSend: async ({ body, session }) => {
      await favorites.send(session, body);
      return null;
    },
  };
}
