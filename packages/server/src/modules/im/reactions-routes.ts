import type { Handlers } from '../../http/route';
import type { EditService } from './edits';
import type { ReactionService } from './reactions';
import type { ReceiptService } from './receipts';

/** `/enterprise/im/*` of reactions, edited texts and group read receipts. */
export function reactionRoutes(reactions: ReactionService, edits: EditService, receipts: ReceiptService): Handlers {
  return {
    reactMessage: async ({ body, session }) => reactions.react(session, body),
    messageReactions: async ({ body, session }) => reactions.who(session, body),
    editMessage: async ({ body, session }) => edits.edit(session, body),
    messageEdits: async ({ body, session }) => edits.versions(session, body),
    groupReadCounts: async ({ body, session }) => receipts.counts(session, body),
    groupReadList: async ({ body, session }) => receipts.list(session, body),
  };
}
