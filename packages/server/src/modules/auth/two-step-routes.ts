import type { ServerConfig } from '../../config';
import { ok } from '../../http/envelope';
import { publicBase } from '../../http/public-url';
import type { Handlers } from '../../http/route';
import { relyingParty, type PasskeyService } from './passkeys';
import { clientInfo } from './routes';
import type { AuthService } from './service';
import type { TwoStepService } from './two-step';

/** Two-step sign-in: the second step of a sign-in, and the user's own authenticator app and recovery codes. */
export function twoStepRoutes(
  ctx: { env: ServerConfig },
  auth: AuthService,
  twoStep: TwoStepService,
  passkeys: PasskeyService,
): Handlers {
  return {
    loginTwoStep: async ({ body, req }) => {
      const base = publicBase(ctx.env, req);
      const client = clientInfo(req, base, body.client_id);
      const { passkey } = body;
      const result = passkey
        ? await auth.answerTicket(body.ticket, client, (user) => passkeys.proves(relyingParty(base), passkey, user.id))
        : await auth.loginTwoStep(body, client);
      return ok(result, { msg: 'ok.login' });
    },
    twoStepStatus: async ({ session }) => twoStep.status(session.user),
    totpBegin: async ({ session }) => twoStep.begin(session),
    totpConfirm: async ({ body, session, req }) => twoStep.confirm(session, body.code, req.ip),
    recoveryCodesNew: async ({ body, session, req }) => twoStep.renewCodes(session, body.code, req.ip),
    totpDisable: async ({ body, session, req }) => {
      const client = clientInfo(req, publicBase(ctx.env, req));
      await twoStep.disable(session, body.code, req.ip, () =>
        auth.reauthenticate(session.user, { password: body.password }, client),
      );
      return null;
    },
  };
}
