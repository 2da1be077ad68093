import { isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import ipaddr from 'ipaddr.js';
import { atMostEvery } from '../lib/at-most';
import { trustedPeers } from './connections';

/** One element of an RFC 7239 `Forwarded` header: what one proxy saw. */
interface Hop {
  for?: string;
  host?: string;
  proto?: string;
}

/** Splits on `sep` outside quoted strings. */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === sep && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const unquote = (v: string) => (v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v);

/** The hops of a `Forwarded` header (RFC 7239 §4), the client's first. */
export function parseForwarded(header: string): Hop[] {
  return splitOutsideQuotes(header, ',').map((element) => {
    const hop: Hop = {};
    for (const pair of splitOutsideQuotes(element, ';')) {
      const eq = pair.indexOf('=');
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim().toLowerCase();
      if (name === 'for' || name === 'host' || name === 'proto') hop[name] = unquote(pair.slice(eq + 1).trim());
    }
    return hop;
  });
}

/** The address of a `for=` node (RFC 7239 §6: `1.2.3.4`, `1.2.3.4:80`, `[::1]`, `[::1]:80`), or undefined. */
export function nodeAddress(node: string): string | undefined {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(node);
  const address = bracketed ? bracketed[1]! : node.replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1');
  return isIP(address) ? address : undefined;
}

/**
 * Reads RFC 7239 `Forwarded` as the `X-Forwarded-*` headers it stands for, when the request has no
 * `X-Forwarded-For`. Fastify then believes them exactly as far as TRUST_PROXY trusts each hop
 * (`req.ip`, `req.host`, `req.protocol`), so a `Forwarded` from an untrusted peer changes nothing.
 * `X-Forwarded-For` wins when both are present: the usual proxies (nginx, Caddy, Traefik) append
 * to it and pass a client's own `Forwarded` on untouched. A hop that names no address (`unknown`,
 * an obfuscated `_id`) ends the chain there: the proxy that wrote it is the client as far as this
 * server can tell.
 */
export function forwardedAsXForwarded(headers: IncomingHttpHeaders): void {
  const header = headers.forwarded;
  if (!header || headers['x-forwarded-for'] !== undefined) return;
  const hops = parseForwarded(header);
  const addresses: string[] = [];
  for (const hop of hops) {
    const address = hop.for === undefined ? undefined : nodeAddress(hop.for);
    if (address === undefined) addresses.length = 0;
    else addresses.push(address);
  }
  if (addresses.length > 0) headers['x-forwarded-for'] = addresses.join(', ');
  const nearest = hops.at(-1);
  if (nearest?.host) headers['x-forwarded-host'] = nearest.host;
  if (nearest?.proto) headers['x-forwarded-proto'] = nearest.proto;
}

/**
 * Reads `Forwarded` before anything asks a request for its client's address, and says (at most
 * once a minute) when a peer on a private network sends forwarding headers that TRUST_PROXY does
 * not trust: a proxy on another machine whose clients would all look like the proxy itself, to the
 * login lockout, the sign-up limit and the connection cap alike.
 */
export function readForwarded(app: FastifyInstance, trustProxy: boolean | string, now: () => number): void {
  const trusted = trustedPeers(trustProxy);
  const warn = atMostEvery(60_000, now, (peer: string) =>
    app.log.warn(
      { peer },
      'a proxy on the local network sends X-Forwarded-For or Forwarded, but TRUST_PROXY does not trust it: every client behind it looks like the proxy (set TRUST_PROXY=loopback,<its address>)',
    ),
  );
  app.addHook('onRequest', async (req) => {
    const { headers } = req.raw;
    const peer = req.socket.remoteAddress;
    if (
      peer !== undefined &&
      (headers['x-forwarded-for'] !== undefined || headers.forwarded !== undefined) &&
      !trusted(peer, 0) &&
      onPrivateNetwork(peer)
    )
      warn(peer);
    forwardedAsXForwarded(headers);
  });
}

/** Whether an address is one of a local network (private, unique-local, link-local, CGNAT). */
function onPrivateNetwork(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return ['private', 'uniqueLocal', 'linkLocal', 'carrierGradeNat'].includes(parsed.range());
}
