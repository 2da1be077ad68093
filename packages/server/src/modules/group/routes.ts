import type { ServerConfig } from '../../config';
import { ok } from '../../http/envelope';
import { publicBase } from '../../http/public-url';
import type { Handlers } from '../../http/route';
import type { GroupCodeService } from './codes';
import type { GroupAdminService } from './manage';
import type { GroupService } from './service';

/** `/enterprise/group/*`. */
export function groupRoutes(
  ctx: { env: ServerConfig },
  groups: GroupService,
  admin: GroupAdminService,
  codes: GroupCodeService,
): Handlers {
  return {
    groupAdd: async ({ body, session }) => ok(await groups.create(session, body), { msg: 'ok.created' }),
    groupInfo: async ({ body, session, req }) => codes.info(session, body.group_id, publicBase(ctx.env, req)),
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
    removeUser: async ({ body, session }) => {
      await admin.removeUser(session, body);
      return null;
    },
    setManager: async ({ body, session }) => {
      await admin.setManager(session, body);
      return ok(null, { msg: 'ok.saved' });
    },
    changeOwner: async ({ body, session }) => {
      await admin.changeOwner(session, body);
      return ok(null, { msg: 'ok.saved' });
    },
    setNoSpeak: async ({ body, session }) => {
      await admin.setNoSpeak(session, body);
      return ok(null, { msg: 'ok.saved' });
    },
    groupSetting: async ({ body, session }) => {
      await admin.setting(session, body);
      return ok(null, { msg: 'ok.saved' });
    },
    editGroupName: async ({ body, session }) => {
      await admin.rename(session, body);
      return ok(null, { msg: 'ok.saved' });
    },
    setNotice: async ({ body, session }) => {
      await admin.setNotice(session, body);
      return ok(null, { msg: 'ok.saved' });
    },
    removeGroup: async ({ body, session }) => {
      await admin.disband(session, body.id);
      return null;
    },
    clearMessage: async ({ body, session }) => {
      await admin.clear(session, body.id);
      return null;
    },
    groupInfoqq: async ({ body, session }) => codes.preview(session, body.token),
    scanGroup: async ({ body, session }) => codes.scan(session, body.realToken),
    joinGroup: async ({ body, session }) => codes.join(session, body),
    resetGroupQr: async ({ body, session, req }) => codes.resetQr(session, body.group_id, publicBase(ctx.env, req)),
    updateCard: async ({ body, session }) => {
      await admin.updateCard(session, body);
      return ok(null, { msg: 'ok.saved' });
    },
    uploadGroupAvatar: async ({ req, session }) => ok(await admin.uploadAvatar(session, req), { msg: 'ok.saved' }),
  };
}
