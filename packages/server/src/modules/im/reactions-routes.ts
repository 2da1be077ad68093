import type { Handlers } from '../../http/route';
import type { EditService } from './edits';
import type { ReactionService } from './reactions';

/** `/enterprise/im/*` of reactions and edited texts. */
export function reactionRoutes(reactions: ReactionService, edits: EditService): Handlers {
  return {
    reactMessage: async ({ body, session }) => reactions.react(session, body),
    messageReactions: async ({ body, session }) => reactions.who(session, body),
    editMessage: async ({ body, session }) => edits.edit(session, body),
    messageEdits: async ({ body, session }) => edits.versions(session, body),
  };
}
