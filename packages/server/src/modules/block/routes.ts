import { ok } from '../../http/envelope';
import { socketOf, type Handlers } from '../../http/route';
import type { BlockService } from './service';

/** `/enterprise/block/*`. */
export function blockRoutes(blocks: BlockService): Handlers {
  return {
    blockAdd: async ({ body, session, req }) => {
      await blocks.block(session, body, socketOf(req));
      return null;
    },
    blockDel: async ({ body, session, req }) => {
      await blocks.unblock(session, body, socketOf(req));
      return null;
    },
    blockList: async ({ body, session }) => {
      const { items, total } = await blocks.list(session, body);
      return ok(items, { count: total, page: body.page });
    },
  };
}
