import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from '../../config';
import { AppError } from '../../errors';
import { languageStated, localeOf, ok } from '../../http/envelope';
import { publicBase } from '../../http/public-url';
import type { Handlers } from '../../http/route';
import type { AuthService, ClientInfo } from './service';
import { isMobileAgent } from './session';

/** Where a request came from, as a sign-in records it. */
export function clientInfo(req: FastifyRequest, base: string, clientId?: string): ClientInfo {
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
    languageStated: languageStated(req),
    base,
  };
}

/** `/common/Pub/*` accounts and sessions, and the password and account changes. */
export function authRoutes(ctx: { env: ServerConfig }, auth: AuthService): Handlers {
  return {
    register: async ({ body, req }) =>
      ok(await auth.register(body, clientInfo(req, publicBase(ctx.env, req))), { msg: 'ok.register' }),
    login: async ({ body, req }) => {
      const client = { ...clientInfo(req, publicBase(ctx.env, req), body.client_id), twoStep: body.two_step === 1 };
      return ok(await auth.login(body, client), { msg: 'ok.login' });
    },
    checkuser: async ({ session, req }) => auth.me(session, publicBase(ctx.env, req)),
    logout: async ({ session }) => {
      await auth.logout(session);
      return ok(null, { msg: 'ok.logout' });
    },
    // A closed socket already told the user's contacts, if it was their last (Realtime.drop).
    offline: async ({ body, session }) => {
      if (body.user_id !== undefined && body.user_id !== session.userId) throw new AppError('Forbidden');
      return null;
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
    editAccount: async ({ body, session, req }) =>
      ok(await auth.editAccount(body, session, publicBase(ctx.env, req)), { msg: 'ok.accountChanged' }),
  };
}
