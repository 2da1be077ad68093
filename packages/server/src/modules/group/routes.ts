import type { AppContext } from '../../context';
import { ok } from '../../http/envelope';
import type { Handlers } from '../../http/route';
import type { GroupService } from './service';

/** `/enterprise/group/*`. */
export function groupRoutes(_ctx: AppContext, groups: GroupService): Handlers {
  return {
    groupAdd: async ({ body, session }) => ok(await groups.create(session, body), { msg: 'ok.created' }),
    groupInfo: async ({ body, session }) => groups.info(session, body.group_id),
    groupUserList: async ({ body, session }) => {
      const { items, total } = await groups.members(session, body);
      return ok(items, { count: total, page: body.page });
    },
    getAllUser: async ({ body, session }) => groups.candidates(session, body),
    getAllGroup: async ({ body, session }) => groups.mine(session, body.role),
    addGroupUser: async ({ body, session }) => {
      await groups.addUsers(session, body);
      return ok(null, { msg: 'ok.invited' });
    },
  };
}
