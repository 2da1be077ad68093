import { createHash, timingSafeEqual } from 'node:crypto';
import net from 'node:net';

/** True for an address of this machine: 127.0.0.0/8, ::1, and IPv4 loopback written as IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (net.isIPv4(v4)) return v4.startsWith('127.');
  return net.isIPv6(address) && (address === '::1' || address === '0:0:0:0:0:0:0:1');
}

/**
 * Who may read /metrics: a caller on this machine, and anyone presenting METRICS_TOKEN as a bearer
 * token. "On this machine" means both the connection's peer and the client the request was made for
 * (`req.ip`, through the proxies TRUST_PROXY trusts) are loopback: a reverse proxy on this host
 * forwarding an outside request is not on this machine. Answers `ok`, or why not: `no-token`
 * (nothing presented: 401) or `wrong-token` (403).
 */
export function metricsAccess(
  caller: { peer: string | undefined; ip: string; authorization: string | undefined },
  token: string | undefined,
): 'ok' | 'no-token' | 'wrong-token' {
  if (isLoopback(caller.peer) && isLoopback(caller.ip)) return 'ok';
  const presented = /^bearer\s+(.+)$/i.exec(caller.authorization?.trim() ?? '')?.[1];
  if (!presented) return 'no-token';
  if (!token) return 'wrong-token';
  // Compared as digests: equal lengths, and no time that depends on where they differ.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(presented), digest(token)) ? 'ok' : 'wrong-token';
}
