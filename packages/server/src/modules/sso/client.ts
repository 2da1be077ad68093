import type * as OpenId from 'openid-client';
import { importOnFirstUse } from '../../lib/lazy';

/** openid-client (ES module only): loaded by the first round trip, not at start. */
const loadOpenId = importOnFirstUse(() => import('openid-client'));

/** How long an issuer's discovered metadata is used before it is asked again, ms. */
const DISCOVERY_TTL_MS = 10 * 60_000;

/** An issuer the server talks to: what the operator stored, its secret opened. */
export interface IssuerSettings {
  id: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The stored row's version: a change discovers again. */
  version: number;
}

/**
 * Plain http is for an issuer on this machine only (a test's, a developer's): anywhere else the
 * code, tokens and secret would cross the network in the clear.
 */
export function httpAllowed(issuer: URL): boolean {
  return issuer.protocol === 'https:' || ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
}

/** The authorization-code flow with PKCE, state and nonce, through openid-client's checks. */
export class OpenIdClient {
  private readonly discovered = new Map<string, { key: string; at: number; config: Promise<OpenId.Configuration> }>();

  private async configOf(s: IssuerSettings): Promise<OpenId.Configuration> {
    const key = `${s.version}:${s.issuer}:${s.clientId}`;
    const cached = this.discovered.get(s.id);
    if (cached && cached.key === key && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const client = await loadOpenId();
    const url = new URL(s.issuer);
    const config = client.discovery(
      url,
      s.clientId,
      undefined,
      s.clientSecret ? client.ClientSecretBasic(s.clientSecret) : client.None(),
      { execute: url.protocol === 'http:' ? [client.allowInsecureRequests] : [], timeout: 10 },
    );
    this.discovered.set(s.id, { key, at: Date.now(), config });
    config.catch(() => this.discovered.delete(s.id));
    return config;
  }

  /** A fresh round trip with this `state`: where to send the browser, and what the callback checks against. */
  async begin(s: IssuerSettings, redirectUri: string, scopes: string, state: string) {
    const client = await loadOpenId();
    const config = await this.configOf(s);
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: scopes,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state, verifier, nonce };
  }

  /**
   * The code of the callback's URL exchanged for tokens, the ID token validated (issuer, audience,
   * signature, expiry, nonce) and the state checked: the ID token's claims.
   */
  async finish(
    s: IssuerSettings,
    callbackUrl: URL,
    expected: { state: string; verifier: string; nonce: string },
  ): Promise<OpenId.IDToken> {
    const client = await loadOpenId();
    const config = await this.configOf(s);
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: expected.verifier,
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    return claims;
  }
}
