import { socketOf, type Handlers } from '../../http/route';
import type { MomentService } from './service';

/** `/enterprise/moments/*`. */
export function momentRoutes(_ctx: unknown, moments: MomentService): Handlers {
  return {
    momentsList: async ({ body, session }) => moments.list(session, body),
    momentsPublish: async ({ body, session }) => moments.publish(session, body),
    momentsDel: async ({ body, session, req }) => {
      await moments.remove(session, body.id, socketOf(req));
      return null;
    },
    momentsLike: async ({ body, session }) => moments.like(session, body.id),
    momentsUnlike: async ({ body, session }) => moments.unlike(session, body.id),
    momentsComment: async ({ body, session }) => moments.comment(session, body),
    momentsDelComment: async ({ body, session }) => {
      await moments.removeComment(session, body.id);
      return null;
    },
    momentsNotices: async ({ body, session }) => moments.notices(session, body.page),
    momentsUnread: async ({ session }) => moments.unread(session),
    momentsReadNotices: async ({ session }) => {
      await moments.readNotices(session);
      return null;
    },
    momentsSetCover: async ({ body, session }) => moments.setCover(session, body.file_id),
    momentsSetting: async ({ body, session }) => moments.setting(session, body),
  };
}
