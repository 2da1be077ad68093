import { qrLanding, QR_PATH, type QrKind } from '@sparrow/protocol';
import type { FastifyInstance } from 'fastify';
import type { Handlers } from '../../http/route';
import type { QrService } from './service';

/** userInfoqq and `/scan/u/…`; a group's scanned code is the group module's (groupInfoqq, scanGroup, joinGroup). */
export function qrRoutes(_ctx: unknown, qr: QrService): Handlers {
  return {
    userInfoqq: async ({ body, session }) => qr.preview(session, body.token),
    scanUser: async ({ body, session }) => {
      const person = await qr.preview(session, body.realToken);
      return { ...person, id: person.user_id, action: 'userInfo' };
    },
  };
}

/** A request's URL as the log shows it: a scan path's token is a key to a group, and is left out. */
export function loggedUrl(url: string): string {
  return url.replace(/(\/scan\/[ug]\/)[^/?#]+/i, '$1…');
}

/**
 * A code's URL opened in a browser (GET `/scan/u/<token>`, `/scan/g/<token>`): Sparrow's page for
 * the code, next to the scan path whatever path the server is served under. Raingad clients post
 * the same path instead (scanUser, scanGroup).
 */
export function registerScanPages(app: FastifyInstance): void {
  const kinds = new Map((Object.keys(QR_PATH) as QrKind[]).map((k) => [QR_PATH[k] as string, k]));
  app.get<{ Params: { kind: string; token: string } }>('/scan/:kind/:token', async (req, reply) => {
    const kind = kinds.get(req.params.kind);
    if (!kind) return reply.callNotFound();
    return reply.redirect(`../../#${qrLanding(kind, req.params.token)}`, 302);
  });
}
