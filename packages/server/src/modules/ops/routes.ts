import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { APP_VERSION, Codes, translate } from '@sparrow/protocol';
import { localeOf } from '../../http/envelope';
import { metricsAccess } from './access';
import type { Readiness } from './health';
import type { Metrics } from './metrics';
import { buildOpenApi } from './openapi';

export interface OpsOptions {
  metrics: Metrics;
  readiness: Readiness;
  /** METRICS_TOKEN: lets a scraper that is not on this machine read /metrics. */
  metricsToken: string | undefined;
}

const swaggerUi = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const DOCS_ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);

// Relative addresses, so that the page works under a proxy's path prefix as well.
const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Sparrow IM API</title>
    <link rel="stylesheet" href="docs/assets/swagger-ui.css" />
    <link rel="stylesheet" href="docs/docs.css" />
    <link rel="icon" href="docs/assets/favicon-32x32.png" />
  </head>
  <body>
    <div id="docs"></div>
    <script src="docs/assets/swagger-ui-bundle.js"></script>
    <script src="docs/init.js"></script>
  </body>
</html>
`;

// A file of its own: the policy allows no inline script. No validator: it would send the document away.
const DOCS_INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: 'openapi.json', dom_id: '#docs', deepLinking: false, validatorUrl: null });
});
`;

// The viewer's own colours that read below 4.5:1 on their background (axe-core), darkened.
const DOCS_CSS = `.swagger-ui .info .title small { background: #555c6a; }
.swagger-ui .info .title small.version-stamp { background: #3b6e00; }
.swagger-ui .info a, .swagger-ui .info .url { color: #1f5fa8; }
.swagger-ui .btn.authorize { color: #1b6e48; border-color: #1b6e48; }
.swagger-ui .btn.authorize svg { fill: #1b6e48; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #1b6e48; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #505050; }
`;

/**
 * The operators' endpoints (docs/protocol.md §7): liveness, readiness, Prometheus metrics, and the HTTP API
 * as an OpenAPI document with a page showing it. Also times every HTTP answer for the metrics.
 */
export async function registerOpsRoutes(app: FastifyInstance, opts: OpsOptions): Promise<void> {
  const { metrics, readiness } = opts;

  app.addHook('onResponse', (req, reply, done) => {
    metrics.request(req.method, req.routeOptions.url ?? 'unknown', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.addHook('onClose', (_app, done) => {
    readiness.close();
    done();
  });

  // The release beside the status, so that an operator sees which version each node runs.
  app.get('/healthz', (_req, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok', version: APP_VERSION }),
  );

  app.get('/readyz', async (_req, reply) => {
    const report = await readiness.check();
    const lines = Object.entries(report.parts).map(([part, state]) => `${part}: ${state}`);
    return reply
      .code(report.ready ? 200 : 503)
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(`${lines.join('\n')}\n`);
  });

  app.get('/metrics', async (req, reply) => {
    const access = metricsAccess(
      { peer: req.socket.remoteAddress, ip: req.ip, authorization: req.headers.authorization },
      opts.metricsToken,
    );
    if (access !== 'ok') {
      if (access === 'no-token') void reply.header('www-authenticate', 'Bearer realm="metrics"');
      return reply
        .code(access === 'no-token' ? 401 : 403)
        .send({ code: Codes.Forbidden, msg: translate(localeOf(req), 'errors.Forbidden'), data: null });
    }
    const text = await metrics.text();
    return reply.type(metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });

  let document: Promise<Record<string, unknown>> | undefined;
  app.get('/openapi.json', async (_req, reply) => {
    document ??= buildOpenApi(APP_VERSION).catch((err: unknown) => {
      document = undefined;
      throw err;
    });
    return reply.header('cache-control', 'no-cache').send(await document);
  });

  app.get('/docs', (_req, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(DOCS_PAGE),
  );
  app.get('/docs/docs.css', (_req, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(DOCS_CSS),
  );
  app.get('/docs/init.js', (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(DOCS_INIT),
  );
  await app.register(fastifyStatic, {
    root: swaggerUi,
    prefix: '/docs/assets/',
    decorateReply: false,
    allowedPath: (pathName) => DOCS_ASSETS.has(pathName.replace(/^\/+/, '')),
    setHeaders: (res) => res.setHeader('cache-control', 'public, max-age=86400'),
  });
}
