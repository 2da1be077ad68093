import { socketOf, type Handlers } from '../../http/route';
import type { PollService } from './polls';

/** `/enterprise/im/*` of polls (投票). */
export function pollRoutes(polls: PollService): Handlers {
  return {
    createPoll: async ({ body, session }) => polls.create(session, body),
    votePoll: async ({ body, session, req }) => polls.vote(session, body, socketOf(req)),
    closePoll: async ({ body, session }) => polls.close(session, body),
    pollVoters: async ({ body, session }) => polls.voters(session, body),
  };
}
