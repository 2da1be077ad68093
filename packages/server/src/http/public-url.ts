import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config';
import { HOST } from './security';

/**
 * The address links handed to this request's client should name (docs/protocol.md §6 qrUrl): PUBLIC_URL
 * when the operator set it; otherwise the address the client used, so that a code made at
 * `http://192.168.1.5:8000` works on a phone. Forwarded headers count only as TRUST_PROXY allows
 * (Fastify's `req.protocol` and `req.host` read them from trusted peers alone); a host that is no
 * host name falls back to the Host header, then to PUBLIC_URL's default.
 */
export function publicBase(env: ServerConfig, req: FastifyRequest): string {
  if (env.publicUrlSet) return env.publicUrl;
  const protocol = req.protocol === 'https' ? 'https' : 'http';
  for (const host of [req.host, req.headers.host]) {
    if (host && HOST.test(host)) return `${protocol}://${host.toLowerCase()}`;
  }
  return env.publicUrl;
}
