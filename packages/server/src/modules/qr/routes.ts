import { qrLanding, QR_PATH, type QrLinkKind } from '@sparrow/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../../config';
import { ok } from '../../http/envelope';
import { publicBase } from '../../http/public-url';
import type { Handlers } from '../../http/route';
import type { QrLoginClient, QrLoginService } from './login';
import type { QrService } from './service';

function header(req: FastifyRequest, name: string): string {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

function loginClient(req: FastifyRequest, env: ServerConfig): QrLoginClient {
  return { ip: req.ip, userAgent: header(req, 'user-agent'), cid: header(req, 'cid'), base: publicBase(env, req) };
}

/**
 * userInfoqq and `/scan/u/…` (a group's scanned code is the group module's: groupInfoqq,
 * scanGroup, joinGroup), and QR login (扫码登录).
 */
export function qrRoutes(ctx: { env: ServerConfig }, qr: QrService, login: QrLoginService): Handlers {
  return {
    userInfoqq: async ({ body, session }) => qr.preview(session, body.token),
    scanUser: async ({ body, session }) => {
      const person = await qr.preview(session, body.realToken);
      return { ...person, id: person.user_id, action: 'userInfo' };
    },
    qrLoginCreate: async ({ req }) => login.create(loginClient(req, ctx.env)),
    qrLoginState: async ({ body, req }) => login.state(body.code, body.secret, publicBase(ctx.env, req)),
    qrLoginScan: async ({ body, session }) => login.scan(session, body.code),
    qrLoginConfirm: async ({ body, session }) => {
      await login.confirm(session, body.code);
      return ok(null, { msg: 'ok.qrLoginConfirmed' });
    },
    qrLoginCancel: async ({ body, session }) => {
      await login.cancel(session, body.code);
      return ok(null, { msg: 'ok.qrLoginCancelled' });
    },
    webSessions: async ({ session }) => login.webSessions(session),
    webSessionEnd: async ({ body, session }) => {
      await login.endWebSession(session, body.session_id);
      return ok(null, { msg: 'ok.webSessionEnded' });
    },
  };
}

/**
 * A code's URL opened in a browser (GET `/scan/u/<token>`, `/scan/g/<token>`): Sparrow's page for
 * the code, next to the scan path whatever path the server is served under. Raingad clients post
 * the same path instead (scanUser, scanGroup).
 */
export function registerScanPages(app: FastifyInstance): void {
  const kinds = new Map((Object.keys(QR_PATH) as QrLinkKind[]).map((k) => [QR_PATH[k] as string, k]));
  app.get<{ Params: { kind: string; token: string } }>('/scan/:kind/:token', async (req, reply) => {
    const kind = kinds.get(req.params.kind);
    if (!kind) return reply.callNotFound();
    return reply.redirect(`../../#${qrLanding(kind, req.params.token)}`, 302);
  });
}
