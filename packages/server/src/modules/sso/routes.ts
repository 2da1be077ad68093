import {
  SSO_CALLBACK_PATH,
  SSO_CODE_VALID_MS,
  SSO_LOGIN_VALID_MS,
  SSO_START_PATH,
  ssoProviderId,
} from '@sparrow/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../../config';
import { AppError } from '../../errors';
import { localeOf } from '../../http/envelope';
import { publicBase } from '../../http/public-url';
import type { Handlers } from '../../http/route';
import type { Limits } from '../../lib/limits';
import type { Actor } from '../admin';
import { clientInfo, type AuthService, type Session } from '../auth';
import type { SsoService } from './service';

const actor = (session: Session, req: FastifyRequest): Actor => ({ adminId: session.userId, ip: req.ip });

/**
 * The cookie holding the secret of the browser that started a round trip (docs/protocol.md §3
 * single sign-on): HttpOnly, SameSite=Lax (the provider's redirect back is a top-level GET, which
 * carries it), for the round trip and its code's minute.
 */
const SSO_COOKIE = 'sparrow_sso';

/** The round trip's browser secret from the request's cookies; '' when it has none. */
function browserSecret(req: FastifyRequest): string {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SSO_COOKIE) return part.slice(at + 1).trim();
  }
  return '';
}

/** The login page's buttons and code exchange, and the console's providers (`/manage/sso*`). */
export function ssoRoutes(ctx: { env: ServerConfig }, sso: SsoService, auth: Pick<AuthService, 'proven'>): Handlers {
  return {
    ssoProviders: () => sso.buttons(),
    // The login page takes a second step (TwoStepLogin) when the user has a second factor.
    ssoExchange: async ({ body, req }) =>
      auth.proven(
        await sso.exchange(body.code, browserSecret(req)),
        { ...clientInfo(req, publicBase(ctx.env, req), body.client_id), twoStep: true },
        'oidc',
      ),
    manageSsoList: ({ req }) => sso.list(publicBase(ctx.env, req)),
    manageSsoSave: ({ body, session, req }) => sso.save(body, actor(session, req), publicBase(ctx.env, req)),
    manageSsoDel: async ({ body, session, req }) => {
      await sso.remove(body.id, actor(session, req));
      return null;
    },
  };
}

/**
 * The login page, from a path of the round trip (`/auth/oidc/<id>/<step>`), with `query`: a
 * relative address, so that a server served under a prefix sends the browser under it too.
 */
const loginPage = (query: Record<string, string>) =>
  `../../../#/pages/login/login?${new URLSearchParams(query).toString()}`;

/**
 * The round trip's two browser navigations (docs/protocol.md §3 single sign-on): the start
 * redirects to the provider, the callback back to the login page with a one-time code, or with
 * the name of the error that stopped it. No session token ever goes into an address.
 */
export function registerSsoPages(
  app: FastifyInstance,
  ctx: { env: ServerConfig; limits: Limits },
  sso: SsoService,
): void {
  const fail = (reply: FastifyReply, err: unknown) => {
    if (!(err instanceof AppError)) throw err;
    return reply.header('cache-control', 'no-store').redirect(loginPage({ sso_error: err.name }), 302);
  };
  const idOf = (req: FastifyRequest<{ Params: { id: string } }>) => {
    const id = ssoProviderId.safeParse(req.params.id);
    if (!id.success) throw new AppError('SsoFailed');
    return id.data;
  };
  app.get<{ Params: { id: string } }>(SSO_START_PATH, async (req, reply) => {
    try {
      await ctx.limits.anyCall(`ip:${req.ip}`);
      const base = publicBase(ctx.env, req);
      const { url, browser } = await sso.start(idOf(req), base);
      const cookie = [
        `${SSO_COOKIE}=${browser}`,
        'Path=/',
        `Max-Age=${Math.ceil((SSO_LOGIN_VALID_MS + SSO_CODE_VALID_MS) / 1000)}`,
        'HttpOnly',
        'SameSite=Lax',
        ...(base.startsWith('https:') ? ['Secure'] : []),
      ].join('; ');
      return reply.header('set-cookie', cookie).header('cache-control', 'no-store').redirect(url, 302);
    } catch (err) {
      return fail(reply, err);
    }
  });
  app.get<{ Params: { id: string } }>(SSO_CALLBACK_PATH, async (req, reply) => {
    try {
      await ctx.limits.anyCall(`ip:${req.ip}`);
      const query = new URLSearchParams(req.url.split('?')[1] ?? '');
      const code = await sso.callback(idOf(req), query, {
        ip: req.ip,
        browser: browserSecret(req),
        locale: localeOf(req),
      });
      return reply.header('cache-control', 'no-store').redirect(loginPage({ sso_code: code }), 302);
    } catch (err) {
      return fail(reply, err);
    }
  });
}
