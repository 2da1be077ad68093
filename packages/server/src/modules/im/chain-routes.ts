import type { Handlers } from '../../http/route';
import type { ChainService } from './chains';

/** `/enterprise/im/chain*`: group sign-up chains (接龙). */
export function chainRoutes(chains: ChainService): Handlers {
  return {
    chainStart: async ({ body, session }) => chains.start(session, body),
    chainJoin: async ({ body, session }) => chains.join(session, body),
    chainWithdraw: async ({ body, session }) => chains.withdraw(session, body),
    chainClose: async ({ body, session }) => chains.close(session, body),
    chainInfo: async ({ body, session }) => chains.info(session, body),
  };
}
