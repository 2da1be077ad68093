import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to; rejects when it resolves to none. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS), as Node's own connections use it. */
export const systemResolver: HostResolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * Names that only mean something inside a network (RFC 6761 `localhost`, RFC 6762 `.local`,
 * RFC 8375 `.home.arpa`, ICANN's private-use `.internal`, common LAN suffixes) and the clouds'
 * metadata services. Refused before any lookup: inside a cloud they resolve to internal addresses
 * the resolver alone might not reveal (a resolver that answers through a proxy, say).
 */
const INTERNAL_NAMES = new Set(['localhost', 'metadata.goog', 'instance-data.ec2.internal']);
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.lan', '.intranet', '.corp', '.home'];

/** `::/96`, the deprecated IPv4-compatible addresses (`::127.0.0.1`), which ipaddr.js counts as unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * True for an address on the public internet: ipaddr.js's `unicast`, that is none of its special
 * ranges (loopback, private, link-local, unique-local, CGNAT, multicast, unspecified, broadcast,
 * documentation and reserved, NAT64, 6to4, Teredo…). IPv4-mapped IPv6 addresses are judged as the
 * IPv4 address they carry.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv6' && ip.match(IPV4_COMPATIBLE)) return false;
  return ip.range() === 'unicast';
}

/** Why an outbound request was refused before it left; `reason` is what logs and metrics read. */
export class OutboundRefused extends Error {
  constructor(
    readonly reason: 'scheme' | 'userinfo' | 'name' | 'address' | 'notAllowed' | 'unresolved',
    detail: string,
  ) {
    super(`outbound request refused (${reason}): ${detail}`);
    this.name = 'OutboundRefused';
  }
}

/** An outbound request that took longer than it was given. */
export class OutboundTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'OutboundTimeout';
  }
}

export interface OutboundPolicy {
  /** Plain `http:` as well as `https:` (tests and local servers only). */
  allowHttp: boolean;
  /** Loopback and private addresses too (tests, and a service on the operator's own network). */
  allowInternal: boolean;
  /** Host names (`push.example.org`) or suffixes (`.push.example.org`) allowed; empty: any public host. */
  allowedHosts: readonly string[];
  resolve: HostResolver;
  /** How long a lookup may take, ms. */
  resolveTimeoutMs: number;
}

/**
 * The one gate for requests the server makes to addresses users give it (push services, and any
 * caller of that kind to come). A URL is checked as written (scheme, userinfo, host names, literal
 * addresses), its name's addresses when it is accepted, and again at connection time: the agents'
 * `lookup` checks the very addresses the socket connects to, so a name that resolved to a public
 * address when it was accepted and to an internal one now (DNS rebinding) is refused, not reached.
 */
export class OutboundGuard {
  private readonly agents: { 'http:': http.Agent; 'https:': https.Agent };

  constructor(private readonly policy: OutboundPolicy) {
    // Kept-alive connections to the few push services spare a TLS handshake per push; idle ones
    // close after a while so that many one-off hosts do not hold sockets.
    const options = { keepAlive: true, maxFreeSockets: 4, timeout: 15_000, lookup: this.lookup };
    this.agents = { 'http:': new http.Agent(options), 'https:': new https.Agent(options) };
  }

  /** Checks a URL as written; answers it parsed. Throws OutboundRefused. */
  checkUrl(target: string): URL {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new OutboundRefused('scheme', 'not a URL');
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.policy.allowHttp))
      throw new OutboundRefused('scheme', url.protocol);
    if (url.username || url.password) throw new OutboundRefused('userinfo', url.host);
    const host = hostOf(url);
    if (!this.allowedHost(host)) throw new OutboundRefused('notAllowed', host);
    // The URL parser has already turned 2130706433, 0x7f000001 and 127.1 into 127.0.0.1.
    if (net.isIP(host)) {
      if (!this.policy.allowInternal && !isPublicAddress(host)) throw new OutboundRefused('address', host);
    } else if (!this.policy.allowInternal && internalName(host)) throw new OutboundRefused('name', host);
    return url;
  }

  /** checkUrl, then the addresses its host resolves to now, every one of them public. */
  async checkResolved(target: string): Promise<URL> {
    const url = this.checkUrl(target);
    const host = hostOf(url);
    if (!net.isIP(host)) await this.addresses(host);
    return url;
  }

  /**
   * Sends one request through the guard and answers the status; the body of the answer is read
   * and dropped. `timeoutMs` bounds everything: lookup, connection, TLS, the answer and its body.
   */
  request(
    target: string,
    init: { method: string; headers: Record<string, string | number>; body?: Buffer | null; timeoutMs: number },
  ): Promise<number> {
    const url = this.checkUrl(target);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<number>((resolve, reject) => {
      const req = client.request(url, {
        method: init.method,
        headers: init.headers,
        agent: this.agents[url.protocol as 'https:'],
      });
      const timer = setTimeout(() => req.destroy(new OutboundTimeout(init.timeoutMs)), init.timeoutMs);
      req.on('response', (res) => {
        res.on('end', () => clearTimeout(timer));
        // Cut by the timer while its body was still coming: the status is already answered.
        res.on('error', () => clearTimeout(timer));
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.end(init.body ?? undefined);
    });
  }

  /** Closes kept-alive connections. */
  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  /** The agents' lookup: the addresses a connection may use are the ones checked here. */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.addresses(hostname).then(
      (found) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family ? found.filter((a) => a.family === family) : found;
        const first = usable[0];
        if (!first) callback(new OutboundRefused('unresolved', `${hostname}: no IPv${family} address`), '', 0);
        else if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };

  /** Every address `host` resolves to, all of them public (or internal allowed). */
  private async addresses(host: string): Promise<ResolvedAddress[]> {
    let found: ResolvedAddress[];
    let timer: NodeJS.Timeout | undefined;
    try {
      found = await Promise.race([
        this.policy.resolve(host),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(new OutboundRefused('unresolved', `${host}: no answer within ${this.policy.resolveTimeoutMs} ms`)),
            this.policy.resolveTimeoutMs,
          );
        }),
      ]);
    } catch (err) {
      if (err instanceof OutboundRefused) throw err;
      throw new OutboundRefused('unresolved', `${host}: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    if (found.length === 0) throw new OutboundRefused('unresolved', host);
    // One internal address among public ones refuses the name: which one a connection takes is
    // not ours to choose.
    const internal = found.find((a) => !isPublicAddress(a.address));
    if (internal && !this.policy.allowInternal) throw new OutboundRefused('address', `${host} → ${internal.address}`);
    return found;
  }

  private allowedHost(host: string): boolean {
    const allowed = this.policy.allowedHosts;
    if (allowed.length === 0) return true;
    return allowed.some((a) => (a.startsWith('.') ? host.endsWith(a) : host === a));
  }
}

/** The URL's host as a name or an address: lower case, no trailing dot, IPv6 without brackets. */
function hostOf(url: URL): string {
  const host = url.hostname.replace(/\.+$/, '');
  return host.startsWith('[') ? host.slice(1, -1) : host;
}

function internalName(host: string): boolean {
  // A name of one label is completed with the resolver's search domains, which are the local network's.
  if (!host.includes('.')) return true;
  return INTERNAL_NAMES.has(host) || INTERNAL_SUFFIXES.some((s) => host.endsWith(s));
}

/** PUSH_ALLOWED_HOSTS and the like: comma-separated names or `.suffixes`, lower case, without trailing dots. */
export function hostList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase().replace(/\.+$/, ''))
    .filter(Boolean);
}

/**
 * Outbound jobs, at most `concurrency` running at once; beyond `max` waiting, the oldest waiting
 * job is dropped: under a flood the newest news is the one worth sending, and memory stays bounded.
 * A job never rejects (it handles its own failures).
 */
export class OutboundQueue {
  private readonly waiting: Array<() => Promise<void>> = [];
  private running = 0;
  private droppedCount = 0;
  private stopped = false;
  private idle: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly max: number,
  ) {}

  add(job: () => Promise<void>): void {
    if (this.stopped) return;
    if (this.waiting.length >= this.max) {
      this.waiting.shift();
      this.droppedCount++;
    }
    this.waiting.push(job);
    this.pump();
  }

  /** Jobs running and waiting now, and those dropped since start. */
  counts(): { running: number; waiting: number; dropped: number } {
    return { running: this.running, waiting: this.waiting.length, dropped: this.droppedCount };
  }

  /** Takes no more jobs, drops those waiting and resolves once the running ones have ended. */
  stop(): Promise<void> {
    this.stopped = true;
    this.waiting.length = 0;
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    while (this.running < this.concurrency) {
      const job = this.waiting.shift();
      if (!job) break;
      this.running++;
      const done = () => {
        this.running--;
        this.pump();
      };
      job().then(done, done);
    }
    if (this.running === 0) for (const resolve of this.idle.splice(0)) resolve();
  }
}
