import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mapSource } from '../src/http/security';
import { ConfigService } from '../src/modules/system/config-service';
import { describeEachDb, startServer, type TestServer } from './harness';

/** A policy's directives by name. */
function directives(header: string): Record<string, string[]> {
  return Object.fromEntries(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describeEachDb('security headers', (target) => {
  let server: TestServer;
  let webDist: string;
  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Sparrow</title>');
    server = await startServer(target, { env: { webDist } });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('serves the web client under a strict policy that no page may frame', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    const csp = directives(res.headers.get('content-security-policy') ?? '');
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['style-src']).toEqual(["'self'"]);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://tile.openstreetmap.org']);
    const host = new URL(server.url).host;
    expect(csp['connect-src']).toEqual([
      "'self'",
      `ws://${host}`,
      `wss://${host}`,
      'https://nominatim.openstreetmap.org',
    ]);
    expect(csp['frame-src']).toEqual(['http:', 'https:']);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('permissions-policy')).toBe('camera=(self), microphone=(self), geolocation=(self)');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('follows the configured map services, and names no forged host', async () => {
    const config = new ConfigService(server.ctx.repos.config);
    await config.load();
    await config.set('map.tileUrl', 'https://{s}.tiles.example.net/{z}/{x}/{y}.png');
    await server.ctx.config.load();
    const res = await fetch(`${server.url}/`);
    const csp = directives(res.headers.get('content-security-policy') ?? '');
    expect(csp['img-src']).toContain('https://*.tiles.example.net');

    const forged = await server.app.inject({
      method: 'GET',
      url: '/',
      headers: { host: "evil.example; script-src 'unsafe-inline'" },
    });
    const policy = String(forged.headers['content-security-policy']);
    expect(policy).not.toContain('evil');
    expect(directives(policy)['script-src']).toEqual(["'self'"]);
  });

  it('sends the same headers with API answers', async () => {
    const res = await server.callRaw('getSystemInfo');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});

it('turns a map URL template into the source it loads from', () => {
  expect(mapSource('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toEqual(['https://tile.openstreetmap.org']);
  expect(mapSource('https://{s}.tile.example.org:8443/{z}/{x}/{y}.png')).toEqual(['https://*.tile.example.org:8443']);
  expect(mapSource('')).toEqual([]);
  expect(mapSource('javascript:alert(1)')).toEqual([]);
  expect(mapSource('not a url')).toEqual([]);
});
