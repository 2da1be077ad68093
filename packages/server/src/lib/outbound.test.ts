import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, OutboundGuard, OutboundQueue, type HostResolver, type OutboundPolicy } from './outbound';

/** An address on the public internet (the documentation ranges are refused like private ones). */
const PUBLIC = '93.184.215.14';

/** A resolver answering from a table the test changes as it goes; counts the lookups of each name. */
function table(entries: Record<string, string[]>) {
  const lookups = new Map<string, number>();
  const resolve: HostResolver = async (host) => {
    lookups.set(host, (lookups.get(host) ?? 0) + 1);
    const found = entries[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { entries, lookups, resolve };
}

function guard(policy: Partial<OutboundPolicy> & Pick<OutboundPolicy, 'resolve'>): OutboundGuard {
  return new OutboundGuard({
    allowHttp: false,
    allowInternal: false,
    allowedHosts: [],
    resolveTimeoutMs: 1000,
    ...policy,
  });
}

async function refusal(g: OutboundGuard, url: string): Promise<string | undefined> {
  try {
    await g.checkResolved(url);
    return undefined;
  } catch (err) {
    return (err as { reason?: string }).reason ?? String(err);
  }
}

describe('outbound guard', () => {
  const dns = table({
    'push.example.org': [PUBLIC],
    'loopback.example.org': ['127.0.0.1'],
    'mixed.example.org': [PUBLIC, '10.0.0.1'],
    'v6.example.org': ['2606:4700:4700::1111'],
    'mapped.example.org': ['::ffff:169.254.169.254'],
  });
  const g = guard({ resolve: dns.resolve });
  afterAll(() => g.close());

  it('refuses loopback, private, link-local, unique-local, CGNAT, metadata and userinfo, however they are spelled', async () => {
    const refused: Record<string, string> = {
      'https://127.0.0.1/push': 'address',
      'https://[::1]/push': 'address',
      'https://2130706433/push': 'address',
      'https://0x7f000001/push': 'address',
      'https://127.1/push': 'address',
      'https://0177.0.0.1/push': 'address',
      'https://169.254.169.254/latest/meta-data/': 'address',
      'https://10.0.0.1/push': 'address',
      'https://172.16.5.4/push': 'address',
      'https://192.168.1.1/push': 'address',
      'https://100.64.0.1/push': 'address',
      'https://[fd00::1]/push': 'address',
      'https://[fe80::1]/push': 'address',
      'https://[::ffff:127.0.0.1]/push': 'address',
      'https://[::127.0.0.1]/push': 'address',
      'https://[64:ff9b::a00:1]/push': 'address',
      'https://0.0.0.0/push': 'address',
      'https://224.0.0.1/push': 'address',
      'https://255.255.255.255/push': 'address',
      'https://192.0.2.1/push': 'address',
      'https://metadata.google.internal/computeMetadata/v1/': 'name',
      'https://metadata.google.internal./computeMetadata/v1/': 'name',
      'https://localhost/push': 'name',
      'https://printer.local/push': 'name',
      'https://intranet/push': 'name',
      'https://user:pass@push.example.org/push': 'userinfo',
      'https://user@push.example.org/push': 'userinfo',
      'https://loopback.example.org/push': 'address',
      'https://mixed.example.org/push': 'address',
      'https://mapped.example.org/push': 'address',
      'https://nowhere.example.org/push': 'unresolved',
      'http://push.example.org/push': 'scheme',
      'ftp://push.example.org/push': 'scheme',
    };
    const got: Record<string, string | undefined> = {};
    for (const url of Object.keys(refused)) got[url] = await refusal(g, url);
    expect(got).toEqual(refused);
  });

  it('accepts a public host by name or address, IPv4 or IPv6', async () => {
    for (const url of [
      'https://push.example.org/send/abc',
      'https://v6.example.org/send/abc',
      'https://8.8.8.8/send',
      'https://[2606:4700::1111]/send',
    ])
      expect(await refusal(g, url), url).toBeUndefined();
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    expect(isPublicAddress('not an address')).toBe(false);
  });

  it('allows only the listed hosts and suffixes when there is a list', async () => {
    const listed = guard({
      resolve: table({
        'fcm.googleapis.com': [PUBLIC],
        'updates.push.services.mozilla.com': [PUBLIC],
        'evil.example': [PUBLIC],
      }).resolve,
      allowedHosts: ['fcm.googleapis.com', '.push.services.mozilla.com'],
    });
    try {
      expect(await refusal(listed, 'https://fcm.googleapis.com/fcm/send/x')).toBeUndefined();
      expect(await refusal(listed, 'https://updates.push.services.mozilla.com/wpush/v2/x')).toBeUndefined();
      expect(await refusal(listed, 'https://evil.example/x')).toBe('notAllowed');
      expect(await refusal(listed, 'https://fcm.googleapis.com.evil.example/x')).toBe('notAllowed');
      expect(await refusal(listed, 'https://push.services.mozilla.com.evil.example/x')).toBe('notAllowed');
    } finally {
      listed.close();
    }
  });
});

describe('outbound requests', () => {
  /** A server on loopback standing in for whatever an internal address would reach. */
  const hits: string[] = [];
  const cut: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/slow') {
      res.on('close', () => cut.push(req.url ?? ''));
      return;
    }
    res.writeHead(201).end();
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const post = (g: OutboundGuard, url: string, timeoutMs = 2000) =>
    g.request(url, { method: 'POST', headers: {}, body: Buffer.from('x'), timeoutMs });

  it('connects to the address its lookup checked, so the resolver decides where a request goes', async () => {
    const dns = table({ 'push.example.org': ['127.0.0.1'] });
    const internalAllowed = guard({ resolve: dns.resolve, allowHttp: true, allowInternal: true });
    try {
      expect(await post(internalAllowed, `http://push.example.org:${port}/reached`)).toBe(201);
      expect(hits).toContain('/reached');
      expect(dns.lookups.get('push.example.org')).toBe(1);
    } finally {
      internalAllowed.close();
    }
  });

  it('refuses at connection time a name that resolved to a public address before and to loopback now', async () => {
    const dns = table({ 'rebind.example.org': [PUBLIC] });
    const g = guard({ resolve: dns.resolve, allowHttp: true });
    try {
      const url = `http://rebind.example.org:${port}/rebound`;
      await g.checkResolved(url);
      dns.entries['rebind.example.org'] = ['127.0.0.1'];
      await expect(post(g, url)).rejects.toMatchObject({ name: 'OutboundRefused', reason: 'address' });
      expect(dns.lookups.get('rebind.example.org')).toBe(2);
      expect(hits).not.toContain('/rebound');
    } finally {
      g.close();
    }
  });

  it('cuts a request its server does not answer within the time given', async () => {
    const g = guard({ resolve: table({}).resolve, allowHttp: true, allowInternal: true });
    try {
      const started = Date.now();
      await expect(post(g, `http://127.0.0.1:${port}/slow`, 200)).rejects.toMatchObject({ name: 'OutboundTimeout' });
      expect(Date.now() - started).toBeLessThan(1500);
      const deadline = Date.now() + 2000;
      while (!cut.includes('/slow') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(cut).toContain('/slow');
    } finally {
      g.close();
    }
  });
});

describe('outbound queue', () => {
  it('runs at most `concurrency` jobs and drops the oldest waiting one when full', async () => {
    const queue = new OutboundQueue(1, 2);
    const ran: number[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const job = (n: number) => async () => {
      ran.push(n);
      if (n === 1) await held;
    };
    for (const n of [1, 2, 3, 4]) queue.add(job(n));
    expect(ran).toEqual([1]);
    expect(queue.counts()).toEqual({ running: 1, waiting: 2, dropped: 1 });
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect(ran).toEqual([1, 3, 4]);
    expect(queue.counts()).toEqual({ running: 0, waiting: 0, dropped: 1 });
  });
});
