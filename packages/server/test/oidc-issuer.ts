// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- oidc-provider ships no types, and the browser suites compile this file without the server tsconfig that holds them
/// <reference path="./oidc-provider.d.ts" />
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import sharp from 'sharp';

/**
 * A small OpenID Connect issuer on loopback for the single sign-on suites (server and browser):
 * oidc-provider with its own login and consent pages (any password), one confidential client.
 *
 * Its people are named by the login typed at its login page, and their claims follow from it:
 * `sub` the login itself, `email` `<login>@corp.example` (verified unless the login starts with
 * `unverified`), `name` `<Login> Example`, a `picture` served by the issuer itself, and
 * `groups` ['staff'], with 'sparrow-admins' too when the login contains `boss`.
 */
export interface Issuer {
  /** http://127.0.0.1:<port> */
  url: string;
  clientId: string;
  clientSecret: string;
  /** The claims the issuer vouches for a login with. */
  claimsOf(login: string): Record<string, unknown>;
  close(): Promise<void>;
}

export const ADMIN_GROUP = 'sparrow-admins';

/** Starts an issuer whose client may send people back to any of `redirectUris`. */
export async function startIssuer(redirectUris: string[]): Promise<Issuer> {
  const picture = await sharp({
    create: { width: 64, height: 64, channels: 3, background: { r: 30, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();
  const clientId = 'sparrow';
  const clientSecret = 'issuer-test-secret-0123456789';
  let url = '';
  const claimsOf = (login: string) => ({
    sub: login,
    email: `${login}@corp.example`,
    email_verified: !login.startsWith('unverified'),
    name: `${login.charAt(0).toUpperCase()}${login.slice(1)} Example`,
    picture: `${url}/pictures/${encodeURIComponent(login)}.png`,
    groups: login.includes('boss') ? ['staff', ADMIN_GROUP] : ['staff'],
  });

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(url, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'picture'],
      groups: ['groups'],
    },
    scopes: ['openid', 'email', 'profile', 'groups'],
    // The ID token carries the scopes' claims itself: Sparrow reads no userinfo.
    conformIdTokenClaims: false,
    cookies: { keys: ['issuer-test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => claimsOf(id),
    }),
  });
  // Its development keys and interactions are what a test wants; their warnings are not.
  provider.on('server_error', () => undefined);
  const handle = provider.callback();
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/pictures/')) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': picture.length }).end(picture);
      return;
    }
    handle(req, res);
  });
  return {
    url,
    clientId,
    clientSecret,
    claimsOf,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Walks the issuer's login and consent pages as a browser would, from the authorization URL a
 * Sparrow start redirected to, signing in as `login`: the address the issuer sends the browser
 * back to (Sparrow's callback with `code` and `state`), not followed.
 */
export async function signInAtIssuer(authorizationUrl: string, login: string, issuerUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const go = async (target: string, form?: Record<string, string>) => {
    const res = await fetch(new URL(target, issuerUrl), {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: cookie(), ...(form && { 'content-type': 'application/x-www-form-urlencoded' }) },
      body: form ? new URLSearchParams(form).toString() : null,
    });
    keep(res);
    return res;
  };
  let res = await go(authorizationUrl);
  for (let step = 0; step < 10; step++) {
    const location = res.headers.get('location');
    if (!location) throw new Error(`the issuer answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    const next = new URL(location, issuerUrl);
    if (next.origin !== new URL(issuerUrl).origin) return next.href;
    if (next.pathname.startsWith('/interaction/')) {
      const page = await (await go(next.href)).text();
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
      res = await go(next.href, prompt === 'login' ? { prompt, login, password: 'any' } : { prompt: 'consent' });
    } else res = await go(next.href);
  }
  throw new Error('the issuer never sent the browser back');
}
