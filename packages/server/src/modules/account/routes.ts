import { EXPORT_DOWNLOAD_PATH } from '@sparrow/protocol';
import type { FastifyInstance } from 'fastify';
import type { FastifyRequest } from 'fastify';
import { translate, type MessageKey } from '@sparrow/protocol';
import { AppError, noSession } from '../../errors';
import { localeOf, ok } from '../../http/envelope';
import type { Handlers } from '../../http/route';
import type { Limits } from '../../lib/limits';
import { needsTwoStepSetup, type SessionService } from '../auth';
import type { ConfigService } from '../system';
import type { ExportService } from './export';
import type { AccountService } from './service';

/** `/enterprise/account/*`: deleting my account, exporting my data. */
export function accountRoutes(accounts: AccountService, exports: ExportService): Handlers {
  return {
    accountDelete: async ({ body, session, req }) => {
      await accounts.deleteAccount(session, body.password, req.ip);
      return ok(null);
    },
    exportRequest: ({ session }) => exports.request(session),
    exportStatus: ({ body, session }) => exports.status(session, body.id),
  };
}

/**
 * `GET EXPORT_DOWNLOAD_PATH?id=`: the archive of the caller's finished export, with the session's
 * `Authorization` header as every route takes it; anyone else's is not found. Refused (403) to a
 * session that must first change its password or set up a second factor the server requires.
 */
export function registerExportDownload(
  app: FastifyInstance,
  ctx: { sessions: Pick<SessionService, 'fromToken'>; limits: Limits; config: Pick<ConfigService, 'get'> },
  exports: ExportService,
): void {
  app.get<{ Querystring: { id?: string } }>(EXPORT_DOWNLOAD_PATH, async (req, reply) => {
    const session = await ctx.sessions.fromToken(req.headers.authorization);
    await ctx.limits.anyCall(session ? `u:${session.userId}` : `ip:${req.ip}`);
    // A download answers as HTTP does (401, 404), its envelope beside, not 200 as the API routes do.
    if (!session) return reply.code(401).send(envelopeOf(req, noSession()));
    // A session that serves only a password change or a second factor's setup downloads nothing, as its API calls.
    if (session.user.must_change_password)
      return reply.code(403).send(envelopeOf(req, new AppError('PasswordChangeRequired')));
    if (needsTwoStepSetup(session.user, ctx.config.get().account.twoStepRequired))
      return reply.code(403).send(envelopeOf(req, new AppError('TwoStepSetupRequired')));
    const id = /^[1-9][0-9]{0,15}$/.test(req.query.id ?? '') ? Number(req.query.id) : 0;
    const found = await exports.archive(session.userId, id);
    if (!found) return reply.code(404).send(envelopeOf(req, new AppError('NotFound')));
    void reply
      .header('content-type', 'application/zip')
      .header('content-length', found.size)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="sparrow-data-${id}.zip"`);
    return reply.send(found.stream);
  });
}

/** The envelope of an error, in the caller's language. */
function envelopeOf(req: FastifyRequest, err: AppError) {
  return { code: err.code, msg: translate(localeOf(req), `errors.${err.name}` as MessageKey), data: null };
}
