import { ok } from '../../http/envelope';
import type { Handlers } from '../../http/route';
import type { EmojiService } from './service';

/** `/enterprise/emoji/*` and `/common/upload/uploadEmoji`. */
export function emojiRoutes(_ctx: unknown, emoji: EmojiService): Handlers {
  return {
    uploadEmoji: async ({ req, session }) => ok(await emoji.upload(session, req), { msg: 'ok.saved' }),
    emojiIndex: async ({ session }) => emoji.list(session),
    emojiAdd: async ({ body, session }) => ok(await emoji.add(session, body.file_id), { msg: 'ok.saved' }),
    emojiDel: async ({ body, session }) => {
      await emoji.remove(session, body.ids);
      return null;
    },
    emojiMove: async ({ body, session }) => {
      await emoji.moveToFront(session, body.ids);
      return null;
    },
  };
}
