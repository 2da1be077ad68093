import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { localeOf, ok } from '../../http/envelope';
import type { Handlers } from '../../http/route';
import type { AuthService, ClientInfo } from './service';
import { isMobileAgent } from './session';

function clientInfo(req: FastifyRequest, clientId?: string): ClientInfo {
  const header = (name: string) => {
    const v = req.headers[name];
    return (Array.isArray(v) ? v[0] : v) ?? '';
  };
  const ua = header('user-agent');
  return {
    ip: req.ip,
    userAgent: ua,
    cid: header('cid'),
    isMobile: isMobileAgent(ua),
    clientId,
    locale: localeOf(req),
  };
}

/** `/common/Pub/*` accounts and sessions, and the password and account changes. */
export function authRoutes(ctx: AppContext, auth: AuthService): Handlers {
  return {
    register: async ({ body, req }) => ok(await auth.register(body, clientInfo(req)), { msg: 'ok.register' }),
    login: async ({ body, req }) => ok(await auth.login(body, clientInfo(req, body.client_id)), { msg: 'ok.login' }),
    checkuser: async ({ session }) => auth.me(session),
    logout: async ({ session }) => {
      await auth.logout(session);
      return ok(null, { msg: 'ok.logout' });
    },
    sendCode: async ({ body, session, req }) => {
      await auth.sendCode(body, session, localeOf(req));
      return ok(null, { msg: 'ok.codeSent' });
    },
    bindUid: async ({ body, session }) => {
      if (body.user_id !== session.userId) throw new AppError('Forbidden');
      await auth.bindClient(body.client_id, session);
      return null;
    },
    editPassword: async ({ body, session }) => {
      await auth.editPassword(body, session);
      return ok(null, { msg: 'ok.passwordChanged' });
    },
    editAccount: async ({ body, session }) => ok(await auth.editAccount(body, session), { msg: 'ok.accountChanged' }),
  };
}
