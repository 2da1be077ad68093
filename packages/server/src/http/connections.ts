import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';

/** What a connection over the cap is told before it is closed. */
const OVER_CAP = 'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 5\r\nContent-Length: 0\r\n\r\n';

/**
 * Caps the TCP connections one remote address may hold open at `perAddress` (0: no cap): past it a
 * new connection is answered 503 and closed before any request of it is read, so one address holding
 * thousands of slow requests cannot leave others without a connection. Peers `trustProxy` trusts
 * are not capped: every client's connections arrive through a proxy (on this host by default).
 */
export function capConnections(server: Server, perAddress: number, trustProxy: boolean | string): void {
  if (perAddress <= 0 || trustProxy === true) return;
  const trusted = trustedPeers(trustProxy);
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || trusted(address, 0)) return;
    const held = open.get(address) ?? 0;
    if (held >= perAddress) {
      // Closed in the same turn, so no request of it ever reaches a handler; the answer is written
      // at once on a fresh socket (libuv tries the write before queueing it), best effort.
      socket.write(OVER_CAP);
      socket.destroy();
      return;
    }
    open.set(address, held + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/** Whether TRUST_PROXY trusts a peer address, judged as Fastify judges it. */
export function trustedPeers(trustProxy: boolean | string): (address: string, hop: number) => boolean {
  if (typeof trustProxy === 'boolean') return () => trustProxy;
  return proxyAddr.compile(trustProxy.split(',').map((s) => s.trim()));
}
