import type { FastifyInstance } from 'fastify';
import { isInline, mimeOf } from './mime';
import { publicKey, type Storage } from './storage';

/** Serves stored files under `/storage/…`: nosniff, images inline, the rest as downloads. */
export function registerStorageRoutes(app: FastifyInstance, storage: Storage): void {
  app.get<{ Params: { dir: string; name: string }; Querystring: { name?: string } }>(
    '/storage/:dir/:name',
    async (req, reply) => {
      const key = `${req.params.dir}/${req.params.name}`;
      // Uploads only: an object stored under a key of its own (a data export) is served by its own route.
      const found = publicKey(key) ? await storage.open(key) : null;
      if (!found) return reply.code(404).send({ code: 404, msg: 'Not Found', data: null });
      const ext = key.slice(key.lastIndexOf('.') + 1);
      const download = (req.query.name ?? req.params.name).replace(/[^\p{L}\p{N}._ -]/gu, '_').slice(0, 120);
      void reply
        .header('content-type', mimeOf(ext))
        .header('content-length', found.size)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header(
          'content-disposition',
          isInline(ext) ? 'inline' : `attachment; filename*=UTF-8''${encodeURIComponent(download)}`,
        );
      return reply.send(found.stream);
    },
  );
}
