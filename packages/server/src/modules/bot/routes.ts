import type { Handlers } from '../../http/route';
import type { BotService } from './service';

/** The caller's bot accounts (docs/protocol.md §11); none reachable with a token. */
export function botRoutes(bots: BotService): Handlers {
  return {
    botCreate: ({ body, session }) => bots.create(session, body),
    botList: ({ session }) => bots.list(session),
    botEdit: ({ body, session }) => bots.edit(session, body),
    botReset: ({ body, session }) => bots.reset(session, body.bot_id),
    botDelete: async ({ body, session }) => {
      await bots.remove(session, body.bot_id);
      return null;
    },
    botDeliveries: ({ body, session }) => bots.log(session, body.bot_id),
  };
}
