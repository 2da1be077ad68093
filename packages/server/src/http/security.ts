import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { GlobalConfig } from '@sparrow/protocol';

/**
 * The origin a configured map URL loads from, as a CSP source: `https://{s}.tile.example.org/…`
 * becomes `https://*.tile.example.org`. Nothing for an empty or unreadable URL.
 */
export function mapSource(template: string): string[] {
  if (!template) return [];
  try {
    const url = new URL(template.replace(/\{s\}/g, 'sub').replace(/\{[^{}]*\}/g, '0'));
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return [];
    const host = template.includes('{s}') ? url.host.replace(/^sub\./, '*.') : url.host;
    return [`${url.protocol}//${host}`];
  } catch {
    return [];
  }
}

/** A Host header fit to name in a policy or a link, or none (a forged one must not add sources). */
export const HOST = /^[a-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9a-f:.]+\](:[0-9]{1,5})?$/i;

/** This page's own socket address, for browsers that do not count ws: as 'self'. */
function socketSources(req: IncomingMessage): string[] {
  const host = req.headers.host ?? '';
  return HOST.test(host) ? [`ws://${host}`, `wss://${host}`] : [];
}

/**
 * Security headers on every answer, the web client's above all: a strict Content-Security-Policy
 * (scripts and styles from this origin only, no inline script; the configured map tiles and place
 * search; any http(s) page inside the in-app browser's frame, which is sandboxed; never framed
 * itself), a referrer policy that sends other sites our origin only (map tile servers ask for
 * it), and camera, microphone and location for this origin alone.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: () => GlobalConfig): Promise<void> {
  const tiles = () => mapSource(config().map.tileUrl);
  const search = () => mapSource(config().map.searchUrl);
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', () => tiles().join(' ')],
        mediaSrc: ["'self'", 'blob:', 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", (req) => socketSources(req).join(' '), () => search().join(' ')],
        frameSrc: ['http:', 'https:'],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Cross-origin isolation would keep the in-app browser's pages and the map tiles out.
    crossOriginEmbedderPolicy: false,
    // TLS ends at the operator's proxy, which says how long browsers keep to https.
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (_req, reply) => {
    void reply.header('permissions-policy', 'camera=(self), microphone=(self), geolocation=(self)');
  });
}
