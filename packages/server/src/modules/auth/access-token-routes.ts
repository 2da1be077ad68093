import type { Handlers } from '../../http/route';
import type { AccessTokenService } from './access-tokens';

/** 开发者: the caller's personal access tokens (docs/protocol.md §9); none reachable with a token. */
export function accessTokenRoutes(tokens: AccessTokenService): Handlers {
  return {
    tokenCreate: async ({ body, session, req }) => tokens.create(session, body, req.ip),
    tokenList: async ({ session }) => tokens.list(session.userId),
    tokenRevoke: async ({ body, session, req }) => {
      await tokens.revoke(session.userId, body.id, { adminId: session.userId, ip: req.ip });
      return null;
    },
  };
}
