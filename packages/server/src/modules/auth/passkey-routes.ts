import type { ServerConfig } from '../../config';
import { ok } from '../../http/envelope';
import { publicBase } from '../../http/public-url';
import type { Handlers } from '../../http/route';
import { relyingParty, type PasskeyService } from './passkeys';
import { clientInfo } from './routes';
import type { AuthService } from './service';

/**
 * Passkeys (通行密钥): the signed-in user's own (`passkeyRegisterOptions`, `passkeyRegister`,
 * `passkeyList`, `passkeyRename`, `passkeyRemove`) and signing in with one (`passkeyLoginOptions`,
 * `passkeyLogin`). The relying party is the public base the caller reached. Adding and removing
 * one first prove the caller is the user (`AuthService.reauthenticate` with the body's `password`).
 */
export function passkeyRoutes(ctx: { env: ServerConfig }, passkeys: PasskeyService, auth: AuthService): Handlers {
  return {
    passkeyRegisterOptions: async ({ body, session, req }) => {
      const base = publicBase(ctx.env, req);
      const client = clientInfo(req, base);
      return passkeys.registerOptions(session, relyingParty(base), req.ip, () =>
        auth.reauthenticate(session.user, { password: body.password }, client),
      );
    },
    passkeyRegister: async ({ body, session, req }) => {
      const base = publicBase(ctx.env, req);
      return ok(await passkeys.register(session, relyingParty(base), body, clientInfo(req, base)), {
        msg: 'ok.passkeyAdded',
      });
    },
    passkeyList: async ({ session }) => passkeys.list(session),
    passkeyRename: async ({ body, session }) => {
      await passkeys.rename(session, body.id, body.name);
      return ok(null, { msg: 'ok.saved' });
    },
    passkeyRemove: async ({ body, session, req }) => {
      const client = clientInfo(req, publicBase(ctx.env, req));
      await passkeys.remove(session, body.id, req.ip, () =>
        auth.reauthenticate(session.user, { password: body.password }, client),
      );
      return ok(null, { msg: 'ok.passkeyRemoved' });
    },
    passkeyLoginOptions: async ({ body, req }) =>
      passkeys.loginOptions(relyingParty(publicBase(ctx.env, req)), req.ip, body.ticket),
    passkeyLogin: async ({ body, req }) => {
      const base = publicBase(ctx.env, req);
      const client = clientInfo(req, base, body.client_id);
      return ok(await auth.signIn(await passkeys.login(relyingParty(base), body, client), client, 'passkey'), {
        msg: 'ok.login',
      });
    },
  };
}
