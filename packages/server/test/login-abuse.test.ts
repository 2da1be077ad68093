import { ErrorCodes, routes, translate } from '@sparrow/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { nodeAddress, parseForwarded } from '../src/http/forwarded';
import { passwordWork } from '../src/lib/crypto';
import { captureLog, describeEachDb, signUp, startServer, userRow, type TestServer } from './harness';

/**
 * What an attacker may try against sign-in and sign-up: naming their own address to walk past the
 * per-address limits, signing up without end from one address, and timing logins to learn which
 * accounts exist.
 */
describeEachDb('sign-in and sign-up abuse', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    // TRUST_PROXY and REGISTER_PER_HOUR as an operator gets them by default.
    const defaults = loadConfig({});
    server = await startServer(target, {
      env: { trustProxy: defaults.trustProxy, registerPerHour: defaults.registerPerHour },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  /** A login as it arrives from `remoteAddress` with `headers`. */
  async function loginFrom(remoteAddress: string, headers: Record<string, string>, account: string) {
    const res = await server.app.inject({
      method: 'POST',
      url: routes.login.path,
      remoteAddress,
      headers: { 'content-type': 'application/json', 'accept-language': 'en', ...headers },
      payload: JSON.stringify({ account, password: 'wrong-password' }),
    });
    return res.json<{ code: number; msg: string }>();
  }

  const locked = (res: { code: number; msg: string }) => res.code === ErrorCodes.LoginLocked;

  it('believes X-Forwarded-For only from a proxy on this host: a LAN device cannot rotate its address', async () => {
    const { account } = await signUp(server, 'lockme1');
    const answers = [];
    for (let i = 0; i < 7; i++)
      answers.push(await loginFrom('192.168.1.20', { 'x-forwarded-for': `203.0.113.${i + 1}` }, account));
    // Five failures lock the device's own address, whatever address it names.
    expect(answers.map(locked)).toEqual([false, false, false, false, false, true, true]);
    expect(locked(await loginFrom('192.168.1.21', {}, account))).toBe(false);

    // From a proxy on this host, each forwarded client counts for itself.
    const { account: other } = await signUp(server, 'lockme2');
    for (let i = 0; i < 5; i++) await loginFrom('127.0.0.1', { 'x-forwarded-for': '198.51.100.7' }, other);
    expect(locked(await loginFrom('127.0.0.1', { 'x-forwarded-for': '198.51.100.7' }, other))).toBe(true);
    expect(locked(await loginFrom('127.0.0.1', { 'x-forwarded-for': '198.51.100.8' }, other))).toBe(false);
  });

  it('reads RFC 7239 Forwarded from a trusted proxy only, and X-Forwarded-For before it', async () => {
    const { account } = await signUp(server, 'lockme3');
    const forwarded = { forwarded: 'for="[2001:db8::7]:4711";proto=https' };
    for (let i = 0; i < 5; i++) await loginFrom('::1', forwarded, account);
    expect(locked(await loginFrom('127.0.0.1', forwarded, account))).toBe(true);
    expect(locked(await loginFrom('127.0.0.1', { forwarded: 'for=2001:db8::8' }, account))).toBe(false);
    expect(locked(await loginFrom('127.0.0.1', { forwarded: 'for="[2001:db8::8]"' }, account))).toBe(false);
    // A client's own Forwarded passed on by a proxy that appends to X-Forwarded-For changes nothing.
    expect(
      locked(
        await loginFrom('127.0.0.1', { forwarded: 'for=198.51.100.9', 'x-forwarded-for': '2001:db8::7' }, account),
      ),
    ).toBe(true);
    // Nor does one sent straight from the LAN.
    const { account: lan } = await signUp(server, 'lockme4');
    for (let i = 0; i < 5; i++) await loginFrom('10.0.0.9', { forwarded: `for=198.51.100.${i + 20}` }, lan);
    expect(locked(await loginFrom('10.0.0.9', { forwarded: 'for=198.51.100.99' }, lan))).toBe(true);
  });

  it('limits registrations per address to REGISTER_PER_HOUR (20 by default) with a clear answer', async () => {
    const { registerPerHour } = loadConfig({});
    expect(registerPerHour).toBe(20);
    expect(loadConfig({ REGISTER_PER_HOUR: '0' }).registerPerHour).toBe(0);
    expect(loadConfig({ REGISTER_PER_HOUR: '5' }).registerPerHour).toBe(5);
    const ip = '198.51.100.50';
    for (let i = 0; i < registerPerHour; i++) await signUp(server, `many${i}x`, 'secret123', `Many ${i}`, { ip });
    const refused = await server.callRaw(
      'register',
      { account: 'onetoomany', password: 'secret123', realname: 'One too many' },
      { ip, lang: 'en' },
    );
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({
      code: ErrorCodes.RegisterThrottled,
      msg: translate('en', 'errors.RegisterThrottled'),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held back; the same one is again an hour later.
    await signUp(server, 'elsewhere1', 'secret123', 'Elsewhere', { ip: '198.51.100.51' });
    server.clock.advance(3_600_000);
    await signUp(server, 'onetoomany', 'secret123', 'One too many', { ip });
  });

  it('holds REGISTER_PER_HOUR against sign-ups sent at once: each is counted before its work starts', async () => {
    expect(server.ctx.env.registerPerHour).toBe(20);
    const ip = '198.51.100.60';
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        server.callRaw(
          'register',
          { account: `atonce${i}x`, password: 'secret123', realname: `At once ${i}` },
          { ip, lang: 'en' },
        ),
      ),
    );
    const accepted = answers.filter((a) => a.json.code === 0).length;
    const throttled = answers.filter((a) => a.json.code === ErrorCodes.RegisterThrottled).length;
    expect({ accepted, throttled, serverErrors: answers.filter((a) => a.status >= 500).length }).toEqual({
      accepted: 20,
      throttled: 10,
      serverErrors: 0,
    });
  });

  it('does the same password work whether or not the account exists', async () => {
    const known = await signUp(server, 'timing1');
    await server.ctx.db.insertInto('users').values(userRow('nohash1')).execute();
    const attempt = async (account: string, i: number) => {
      const started = performance.now();
      const res = await server.call('login', { account, password: 'wrong-password' }, { ip: `192.0.2.${i + 1}` });
      expect(res.code).toBe(ErrorCodes.LoginFailed);
      return performance.now() - started;
    };
    const measure = async (account: string) => {
      const before = passwordWork.derivations;
      const times = [];
      for (let i = 0; i < 5; i++) times.push(await attempt(account, i));
      return { derivations: passwordWork.derivations - before, median: times.sort((a, b) => a - b)[2]! };
    };
    await attempt(known.account, 10); // warm-up
    const existing = await measure(known.account);
    const missing = await measure('nobody-here');
    const hashless = await measure('nohash1');
    expect([existing.derivations, missing.derivations, hashless.derivations]).toEqual([5, 5, 5]);
    // A key derivation is most of a login's time; without one an unknown account answered ~20× sooner.
    expect(missing.median).toBeGreaterThan(existing.median / 3);
  });
});

describe('a proxy that TRUST_PROXY does not trust', () => {
  it('is named in the log, once a minute, when it sends forwarding headers from the local network', async () => {
    const server = await startServer('sqlite', {
      logger: true,
      env: { logLevel: 'warn', trustProxy: loadConfig({}).trustProxy },
    });
    try {
      const log = captureLog(server.app);
      const from = (remoteAddress: string, headers: Record<string, string>) =>
        server.app.inject({ method: 'POST', url: routes.getSystemInfo.path, remoteAddress, headers, payload: {} });
      const warned = () => log.filter((l) => /TRUST_PROXY does not trust it/.test(String(l.msg)));
      await from('127.0.0.1', { 'x-forwarded-for': '198.51.100.7' });
      await from('203.0.113.5', { 'x-forwarded-for': '198.51.100.7' });
      await from('192.168.1.30', {});
      expect(warned()).toEqual([]);
      await from('192.168.1.30', { 'x-forwarded-for': '198.51.100.7' });
      await from('10.0.0.4', { forwarded: 'for=198.51.100.8' });
      expect(warned().map((l) => (l as unknown as { peer: string }).peer)).toEqual(['192.168.1.30']);
      server.clock.advance(60_000);
      await from('10.0.0.4', { forwarded: 'for=198.51.100.8' });
      expect(warned().map((l) => (l as unknown as { peer: string }).peer)).toEqual(['192.168.1.30', '10.0.0.4']);
    } finally {
      await server.close();
    }
  });
});

describe('Forwarded (RFC 7239)', () => {
  it('takes apart elements, quoted values and node addresses', () => {
    expect(
      parseForwarded('for=192.0.2.60;proto=http;by=203.0.113.43, For="[2001:db8:cafe::17]:4711";host="a,b"'),
    ).toEqual([
      { for: '192.0.2.60', proto: 'http' },
      { for: '[2001:db8:cafe::17]:4711', host: 'a,b' },
    ]);
    expect(nodeAddress('192.0.2.60:8080')).toBe('192.0.2.60');
    expect(nodeAddress('[2001:db8::1]')).toBe('2001:db8::1');
    expect(nodeAddress('2001:db8::1')).toBe('2001:db8::1');
    expect(nodeAddress('unknown')).toBeUndefined();
    expect(nodeAddress('_hidden')).toBeUndefined();
  });
});
