import {
  isEmail,
  type Locale,
  PICTURES,
  SSO_CALLBACK_PATH,
  SSO_CODE_VALID_MS,
  SSO_LOGIN_VALID_MS,
  ssoPath,
  type ManagedSsoProvider,
  type RouteInput,
  type SsoButton,
} from '@sparrow/protocol';
import { AppError } from '../../errors';
import { randomToken, sha256 } from '../../lib/crypto';
import type { Sealer } from '../../lib/sealed';
import type { Repos } from '../../repos';
import type { Actor, AuditLog } from '../admin';
import type { UserRow } from '../user';
import { httpAllowed, OpenIdClient, type IssuerSettings } from './client';
import type { SsoRepo } from './repo';

/** The largest picture a provider's `picture` claim may name, bytes. */
const PICTURE_BYTES_MAX = 2 * 1024 * 1024;
/** How long fetching that picture may take, ms. */
const PICTURE_TIMEOUT_MS = 5_000;

/** What SsoService is built from. */
export interface SsoParts {
  repos: Pick<Repos, 'sso' | 'identities' | 'users'>;
  sealer: Sealer;
  now: () => number;
}

/** The claims of an ID token Sparrow reads. */
interface Claims {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
  preferred_username?: unknown;
  picture?: unknown;
  [claim: string]: unknown;
}

type ProviderRow = NonNullable<Awaited<ReturnType<SsoRepo['provider']>>>;

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const sealContext = (id: string) => `sso:${id}`;
const scopesOf = (scopes: string) => {
  const list = scopes.split(/\s+/).filter(Boolean);
  return (list.includes('openid') ? list : ['openid', ...list]).join(' ');
};

/**
 * Single sign-on with OpenID Connect (docs/product.md "Single sign-on"): the providers an operator
 * configures, a round trip through one (started on any node, finished on any node: its row is the
 * database's), who the provider's person is here (linked identity, an account with the same
 * verified e-mail, or a new account), and the one-time code the login page exchanges for a session.
 */
export class SsoService {
  private readonly repo: SsoRepo;
  private readonly oidc = new OpenIdClient();

  constructor(
    private readonly ctx: SsoParts,
    private readonly audit: Pick<AuditLog, 'append'>,
    private readonly avatars: { avatarFromBytes(bytes: Buffer): Promise<string> },
  ) {
    this.repo = ctx.repos.sso;
  }

  /** The login page's buttons: enabled providers only, their id and label, nothing else. */
  async buttons(): Promise<SsoButton[]> {
    const rows = await this.repo.providers();
    return rows.filter((r) => r.enabled === 1).map((r) => ({ id: r.id, label: r.label }));
  }

  /** The console's list: every provider, its secret only said to exist. */
  async list(base: string): Promise<ManagedSsoProvider[]> {
    const rows = await this.repo.providers();
    return rows.map((r) => this.managed(r, base));
  }

  private managed(r: ProviderRow, base: string): ManagedSsoProvider {
    return {
      id: r.id,
      issuer: r.issuer,
      client_id: r.client_id,
      has_secret: r.client_secret ? 1 : 0,
      scopes: r.scopes,
      label: r.label,
      create_accounts: r.create_accounts ? 1 : 0,
      link_email: r.link_email ? 1 : 0,
      admin_claim: r.admin_claim,
      admin_value: r.admin_value,
      enabled: r.enabled ? 1 : 0,
      redirect_uri: base + ssoPath(SSO_CALLBACK_PATH, r.id),
      update_time: r.update_time,
    };
  }

  /** Adds or changes a provider (audited `configSet`, target `sso:<id>`, never naming the secret). */
  async save(body: RouteInput<'manageSsoSave'>, actor: Actor, base: string): Promise<ManagedSsoProvider> {
    const issuer = new URL(body.issuer);
    if (!httpAllowed(issuer)) throw new AppError('Validation', {}, { fields: ['issuer'] });
    const old = await this.repo.provider(body.id);
    const now = this.ctx.now();
    const secret = body.client_secret
      ? this.ctx.sealer.seal(body.client_secret, sealContext(body.id))
      : (old?.client_secret ?? '');
    const row = {
      id: body.id,
      issuer: body.issuer.replace(/\/+$/, ''),
      client_id: body.client_id,
      client_secret: secret,
      scopes: scopesOf(body.scopes ?? old?.scopes ?? 'openid email profile'),
      label: body.label,
      create_accounts: body.create_accounts ?? old?.create_accounts ?? 0,
      link_email: body.link_email ?? old?.link_email ?? 0,
      admin_claim: body.admin_claim ?? old?.admin_claim ?? '',
      admin_value: body.admin_value ?? old?.admin_value ?? '',
      enabled: body.enabled ?? old?.enabled ?? 1,
      create_time: now,
      update_time: now,
    };
    const added = await this.repo.saveProvider(row);
    const { client_secret: _s, create_time: _c, update_time: _u, ...shown } = row;
    await this.audit.append(actor, 'configSet', `sso:${body.id}`, {
      ...shown,
      added,
      secretChanged: Boolean(body.client_secret),
    });
    const saved = await this.repo.provider(body.id);
    return this.managed(saved!, base);
  }

  async remove(id: string, actor: Actor): Promise<void> {
    if (!(await this.repo.removeProvider(id))) throw new AppError('NotFound', {}, { fields: ['id'] });
    await this.audit.append(actor, 'configSet', `sso:${id}`, { removed: true });
  }

  private async enabled(id: string): Promise<{ row: ProviderRow; issuer: IssuerSettings }> {
    const row = await this.repo.provider(id);
    if (!row || row.enabled !== 1) throw new AppError('SsoFailed');
    const clientSecret = row.client_secret ? this.ctx.sealer.open(row.client_secret, sealContext(id)) : '';
    return {
      row,
      issuer: { id, issuer: row.issuer, clientId: row.client_id, clientSecret, version: row.update_time },
    };
  }

  /**
   * Starts a round trip: its row stored, the provider's authorization URL answered, and the
   * browser's secret (`browser`, for its cookie): the round trip's state is that secret's SHA-256,
   * so that only the browser that started it can finish it (`callback`) and exchange its code.
   */
  async start(id: string, base: string): Promise<{ url: string; browser: string }> {
    const { row, issuer } = await this.enabled(id);
    const redirectUri = base + ssoPath(SSO_CALLBACK_PATH, id);
    const browser = randomToken(32);
    const trip = await this.oidc.begin(issuer, redirectUri, row.scopes, sha256(browser)).catch(() => {
      throw new AppError('SsoFailed');
    });
    const now = this.ctx.now();
    await this.repo.start({
      state: trip.state,
      provider: id,
      verifier: trip.verifier,
      nonce: trip.nonce,
      redirect_uri: redirectUri,
      create_time: now,
      expires_at: now + SSO_LOGIN_VALID_MS,
    });
    return { url: trip.url, browser };
  }

  /**
   * The provider sent the browser back: the round trip taken once by its state, the code
   * exchanged with PKCE and the ID token checked, the person found, linked or created. Answers
   * the one-time code the login page exchanges (`exchange`). Only in the browser that started the
   * round trip: `browser` (its cookie's secret) must be the state's.
   */
  async callback(
    id: string,
    query: URLSearchParams,
    from: { ip: string; browser: string; locale: Locale },
  ): Promise<string> {
    const state = query.get('state') ?? '';
    if (!state || !from.browser || sha256(from.browser) !== state) throw new AppError('SsoFailed');
    const now = this.ctx.now();
    const trip = await this.repo.takeReturn(state, id, now);
    if (!trip || query.has('error')) throw new AppError('SsoFailed');
    const { row, issuer } = await this.enabled(id);
    const url = new URL(trip.redirect_uri);
    url.search = query.toString();
    const claims = (await this.oidc
      .finish(issuer, url, { state, verifier: trip.verifier, nonce: trip.nonce })
      .catch(() => {
        throw new AppError('SsoFailed');
      })) as Claims;
    const user = await this.personOf(row, claims, from.ip, from.locale);
    if (user.status !== 1) throw new AppError('UserDisabled');
    const code = randomToken(32);
    await this.repo.issueCode(trip.id, user.id, sha256(code), this.ctx.now() + SSO_CODE_VALID_MS);
    return code;
  }

  /** Spends a one-time code, once, in the browser that started its round trip (`browser`): the user to sign in. */
  async exchange(code: string, browser: string): Promise<UserRow> {
    const userId = browser ? await this.repo.spendCode(sha256(code), sha256(browser), this.ctx.now()) : undefined;
    const user = userId ? await this.ctx.repos.users.byId(userId) : undefined;
    if (!user) throw new AppError('SsoCodeGone', {}, { fields: ['code'] });
    return user;
  }

  /** The provider's person here: their linked account, one linked by verified e-mail, or a new one. */
  private async personOf(row: ProviderRow, claims: Claims, ip: string, language: Locale): Promise<UserRow> {
    const provider = `oidc:${row.id}`;
    const subject = claims.sub;
    // OpenID Connect bounds `sub` at 255 ASCII characters: one past that is no identity to keep.
    if (!subject || subject.length > 255) throw new AppError('SsoFailed');
    // An address that is not one by the protocol's rule (or too long for one) is kept by no account.
    const claimed = text(claims.email).toLowerCase();
    const email = isEmail(claimed) ? claimed : '';
    const verified = claims.email_verified === true && email !== '';
    // The identity keeps an address the provider vouched for, none other.
    const kept = verified ? email : '';
    const now = this.ctx.now();

    const linked = await this.linkedUser(provider, subject);
    if (linked) {
      await this.ctx.repos.identities.used(linked.link, kept, now);
      return this.mapAdmin(row, claims, linked.user, ip);
    }
    if (row.link_email && verified) {
      const owner = await this.repo.userByEmail(email);
      if (owner) {
        if (await this.ctx.repos.identities.link({ provider, subject, email: kept }, owner.id, now)) {
          await this.audit.append({ adminId: owner.id, ip }, 'ssoLink', `user:${owner.id}`, { provider, email });
          return this.mapAdmin(row, claims, owner, ip);
        }
        const winner = await this.linkedUser(provider, subject);
        if (winner) return this.mapAdmin(row, claims, winner.user, ip);
      }
    }
    if (!row.create_accounts) throw new AppError('SsoNotAllowed');

    const account =
      verified && !(await this.ctx.repos.users.taken(email)) ? email : `${row.id}-${randomToken(6).toLowerCase()}`;
    const realname =
      [text(claims.name), text(claims.preferred_username), email.split('@')[0] ?? ''].find(Boolean)?.slice(0, 30) ||
      account.slice(0, 30);
    const created = await this.ctx.repos.identities.createLinked(
      {
        account,
        password_hash: '',
        realname,
        email: verified ? email : '',
        phone: '',
        avatar: PICTURES.person,
        sex: 2,
        motto: '',
        is_auth: verified ? 1 : 0,
        role: 0,
        status: 1,
        language,
        create_time: now,
        update_time: now,
      },
      { provider, subject, email: kept },
      now,
    );
    if (!created) {
      // The same person's other first sign-in made the account a moment ago.
      const winner = await this.linkedUser(provider, subject);
      if (!winner) throw new AppError('SsoFailed');
      return this.mapAdmin(row, claims, winner.user, ip);
    }
    await this.audit.append({ adminId: created.id, ip }, 'ssoCreate', `user:${created.id}`, {
      provider,
      email: kept,
    });
    const avatar = await this.picture(row, text(claims.picture));
    if (avatar) {
      await this.ctx.repos.users.update(created.id, { avatar });
      created.avatar = avatar;
    }
    return this.mapAdmin(row, claims, created, ip);
  }

  private async linkedUser(provider: string, subject: string) {
    const link = await this.ctx.repos.identities.find(provider, subject);
    const user = link ? await this.ctx.repos.users.byId(link.user_id) : undefined;
    return link && user ? { link: link.id, user } : undefined;
  }

  /**
   * A person whose `admin_claim` holds `admin_value` is made an administrator (audited `userRole`);
   * the claim never takes the role away: an operator does, in the console.
   */
  private async mapAdmin(row: ProviderRow, claims: Claims, user: UserRow, ip: string): Promise<UserRow> {
    if (!row.admin_claim || !row.admin_value || user.role === 1) return user;
    const value = claims[row.admin_claim];
    const values = Array.isArray(value) ? value : [value];
    if (!values.some((v) => v === row.admin_value)) return user;
    await this.ctx.repos.users.update(user.id, { role: 1, update_time: this.ctx.now() });
    await this.audit.append({ adminId: user.id, ip }, 'userRole', `user:${user.id}`, {
      role: 1,
      provider: `oidc:${row.id}`,
    });
    return { ...user, role: 1 };
  }

  /**
   * The `picture` claim's image, stored as an avatar; '' when there is none or it cannot be had.
   * Only from the issuer's own origin (the operator chose to trust it; any other address would be
   * the server fetching what a user named), with no redirect, within PICTURE_BYTES_MAX and
   * PICTURE_TIMEOUT_MS.
   */
  private async picture(row: ProviderRow, picture: string): Promise<string> {
    if (!picture) return '';
    try {
      const url = new URL(picture);
      if (url.origin !== new URL(row.issuer).origin) return '';
      const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(PICTURE_TIMEOUT_MS) });
      if (!res.ok || !res.body || Number(res.headers.get('content-length') ?? 0) > PICTURE_BYTES_MAX) return '';
      // Read as it comes, and given up past the cap: a response that names no length is not kept whole first.
      const chunks: Uint8Array[] = [];
      let size = 0;
      const reader = res.body.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        size += next.value.byteLength;
        if (size > PICTURE_BYTES_MAX) {
          await reader.cancel();
          return '';
        }
        chunks.push(next.value);
      }
      if (size === 0) return '';
      return await this.avatars.avatarFromBytes(Buffer.concat(chunks));
    } catch {
      return '';
    }
  }
}
