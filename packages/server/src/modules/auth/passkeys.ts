import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import {
  deviceName,
  LOGIN_TICKET_TRIES_MAX,
  PASSKEY_CHALLENGE_MS,
  PASSKEYS_PER_USER_MAX,
  translate,
  type Passkey,
  type PasskeyCreationOptions,
  type PasskeyRequestOptions,
  type RouteInput,
} from '@sparrow/protocol';
import { AppError } from '../../errors';
import { hmac, sha256 } from '../../lib/crypto';
import type { Limits } from '../../lib/limits';
import type { Repos } from '../../repos';
import type { AuditLog } from '../admin';
import type { ConfigService } from '../system';
import type { UserRow } from '../user';
import type { ChallengePurpose, PasskeyRepo } from './passkeys-repo';
import type { ClientInfo } from './service';
import type { Session } from './session';

/**
 * The site passkeys are made for and answered to: the public base the caller reached
 * (http/public-url.ts), its host name as WebAuthn's relying party id and its origin as the one
 * the browser must report.
 */
export interface RelyingParty {
  id: string;
  origin: string;
}

/** The relying party of a public base (`https://chat.example.com/sparrow` → chat.example.com). */
export function relyingParty(base: string): RelyingParty {
  const url = new URL(base);
  return { id: url.hostname, origin: url.origin };
}

/** What PasskeyService is built from. */
export interface PasskeyParts {
  repos: Pick<Repos, 'passkeys' | 'factors' | 'users' | 'twoStep'>;
  config: Pick<ConfigService, 'get' | 'secret'>;
  limits: Pick<Limits, 'assertLoginAllowed' | 'loginFailed' | 'loginSucceeded' | 'passkeyOptions'>;
  now: () => number;
}

/**
 * The sign-in limit's key of a passkey sign-in: a stored credential has a count of its own at each
 * address, so that failures behind one shared address (an office's NAT) lock out that credential
 * only; a credential this server does not know names no one, and is counted by the address alone.
 */
const passkeyLoginKey = (stored: { id: number } | undefined) => (stored ? `#passkey:${stored.id}` : '#passkey');

const invalid = () => new AppError('PasskeyInvalid', {}, { fields: ['credential'] });

/** A passkey stored for its owner's list. */
function present(row: {
  id: number;
  name: string;
  create_time: number;
  last_used: number;
  backed_up: number;
}): Passkey {
  return {
    id: row.id,
    name: row.name,
    create_time: row.create_time,
    last_used: row.last_used,
    synced: row.backed_up === 1,
  };
}

const descriptor = (row: { credential_id: string; transports: string }) => ({
  id: row.credential_id,
  type: 'public-key',
  ...(row.transports ? { transports: row.transports.split(',') } : {}),
});

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): adding, listing, renaming and removing them, and
 * signing in with one and no password. Every challenge is a row of `webauthn_challenges`, taken
 * once by whichever node verifies the answer; a passkey counts as both factors, so signing in
 * with one goes on to `AuthService.signIn` with no second step.
 */
export class PasskeyService {
  private readonly keys: PasskeyRepo;

  constructor(
    private readonly ctx: PasskeyParts,
    private readonly audit: Pick<AuditLog, 'append'>,
  ) {
    this.keys = ctx.repos.passkeys;
  }

  /**
   * The WebAuthn user handle of a user: the same for every passkey of theirs (an authenticator
   * keeps one passkey per site and handle), telling nothing of the account.
   */
  private userHandle(userId: number): Buffer {
    return Buffer.from(hmac(this.ctx.config.secret, `webauthn-user:${userId}`), 'hex');
  }

  private async issue(challenge: string, purpose: ChallengePurpose, userId: number): Promise<void> {
    const now = this.ctx.now();
    await this.keys.issue(challenge, purpose, userId, now, now + PASSKEY_CHALLENGE_MS);
  }

  /** Takes the challenge the browser signed, once, if it was handed out for this purpose and user. */
  private taker(purpose: ChallengePurpose, userId: number) {
    return (challenge: string) => this.keys.take(challenge, purpose, userId, this.ctx.now());
  }

  /**
   * Options for adding a passkey to the caller's account: a discoverable credential, verified by the
   * user. A passkey is a way in of its own, so the caller is proven first (`prove`: AuthService
   * `reauthenticate`); the registration challenge it hands out is what `register` takes.
   */
  async registerOptions(
    session: Session,
    rp: RelyingParty,
    ip: string,
    prove: () => Promise<void>,
  ): Promise<PasskeyCreationOptions> {
    await this.ctx.limits.passkeyOptions(ip);
    await prove();
    const user = session.user;
    const mine = await this.keys.listOf(user.id);
    if (mine.length >= PASSKEYS_PER_USER_MAX) throw new AppError('PasskeysFull');
    const options = await generateRegistrationOptions({
      rpName: this.ctx.config.get().sysInfo.name || 'Sparrow',
      rpID: rp.id,
      userID: new Uint8Array(this.userHandle(user.id)),
      userName: user.account,
      userDisplayName: user.realname,
      timeout: PASSKEY_CHALLENGE_MS,
      attestationType: 'none',
      excludeCredentials: mine.map(descriptor),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await this.issue(options.challenge, 'register', user.id);
    return options;
  }

  /**
   * Adds the credential the browser made for the options asked last: its challenge taken, the
   * origin and relying party checked, the user verified. Audited as `passkeyAdd`; the user's
   * `two_step` is set in the same transaction.
   */
  async register(session: Session, rp: RelyingParty, body: RouteInput<'passkeyRegister'>, client: ClientInfo) {
    const userId = session.userId;
    const verified = await verifyRegistrationResponse({
      response: body.credential,
      expectedChallenge: this.taker('register', userId),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    }).catch(() => undefined);
    if (!verified?.verified) throw invalid();
    const info = verified.registrationInfo;
    const now = this.ctx.now();
    const device = deviceName(client.userAgent);
    const name =
      body.name ??
      (device.browser || device.os
        ? translate(client.locale, 'passkey.defaultName', { browser: device.browser, os: device.os })
        : translate(client.locale, 'field.credential'));
    const row = {
      user_id: userId,
      credential_id: info.credential.id,
      public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: (info.credential.transports ?? []).join(',').slice(0, 255),
      device_type: info.credentialDeviceType,
      backed_up: info.credentialBackedUp ? 1 : 0,
      name,
      create_time: now,
    };
    const id = await this.keys.add(row, PASSKEYS_PER_USER_MAX, (trx) =>
      this.ctx.repos.factors.refreshTwoStep(userId, trx),
    );
    if (id === 'full') throw new AppError('PasskeysFull');
    if (id === 'exists') throw new AppError('PasskeyExists', {}, { fields: ['credential'] });
    await this.audit.append({ adminId: userId, ip: client.ip }, 'passkeyAdd', `user:${userId}`, { passkey: id, name });
    return present({ id, name, create_time: now, last_used: 0, backed_up: row.backed_up });
  }

  async list(session: Session): Promise<Passkey[]> {
    return (await this.keys.listOf(session.userId)).map(present);
  }

  /** Renames one of the caller's passkeys; another's is answered as one that does not exist. */
  async rename(session: Session, id: number, name: string): Promise<void> {
    if (!(await this.keys.rename(session.userId, id, name))) throw new AppError('NotFound', {}, { fields: ['id'] });
  }

  /**
   * Removes one of the caller's passkeys (another's is answered as one that does not exist), once
   * the caller is proven (`prove`, as for adding): the last one may turn two-step sign-in off. The
   * user's `two_step` is refreshed in the same transaction; audited as `passkeyRemove`.
   */
  async remove(session: Session, id: number, ip: string, prove: () => Promise<void>): Promise<void> {
    const userId = session.userId;
    if (!(await this.keys.listOf(userId)).some((key) => key.id === id))
      throw new AppError('NotFound', {}, { fields: ['id'] });
    await prove();
    const name = await this.keys.remove(userId, id, (trx) => this.ctx.repos.factors.refreshTwoStep(userId, trx));
    if (name === undefined) throw new AppError('NotFound', {}, { fields: ['id'] });
    await this.audit.append({ adminId: userId, ip }, 'passkeyRemove', `user:${userId}`, { passkey: id, name });
  }

  /**
   * Options for signing in with a passkey: without a ticket any passkey of this site the browser
   * holds (discoverable, no credential named); with a two-step ticket, the passkeys of its user,
   * for `loginTwoStep`.
   */
  async loginOptions(rp: RelyingParty, ip: string, ticket?: string): Promise<PasskeyRequestOptions> {
    await this.ctx.limits.passkeyOptions(ip);
    let userId = 0;
    if (ticket !== undefined) {
      const waiting = await this.ctx.repos.twoStep.liveTicket(sha256(ticket), this.ctx.now(), LOGIN_TICKET_TRIES_MAX);
      if (!waiting) throw new AppError('TwoStepTicketGone');
      userId = waiting.user_id;
    }
    const allow = userId ? (await this.keys.listOf(userId)).map(descriptor) : [];
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: allow,
      userVerification: 'required',
      timeout: PASSKEY_CHALLENGE_MS,
    });
    await this.issue(options.challenge, 'login', userId);
    return options;
  }

  /**
   * Checks a passkey's signature over a challenge handed out for sign-in to `userId` (0: anyone),
   * and records the use; answers the passkey's user. A failure of any kind is PasskeyInvalid.
   */
  async prove(rp: RelyingParty, credential: RouteInput<'passkeyLogin'>['credential'], userId: number) {
    const row = await this.keys.byCredential(credential.id);
    if (!row || (userId !== 0 && row.user_id !== userId)) throw invalid();
    const handle = credential.response.userHandle;
    if (handle !== undefined && handle !== this.userHandle(row.user_id).toString('base64url')) throw invalid();
    const verified = await verifyAuthenticationResponse({
      response: credential,
      expectedChallenge: this.taker('login', userId),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: row.credential_id,
        publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
        counter: row.counter,
        ...(row.transports ? { transports: row.transports.split(',') } : {}),
      },
      requireUserVerification: true,
    }).catch(() => undefined);
    if (!verified?.verified) throw invalid();
    // The counter moves forward under a compare-and-set: of two sign-ins with one signature, one counts.
    if (!(await this.keys.used(row.id, verified.authenticationInfo.newCounter, this.ctx.now()))) throw invalid();
    const user = await this.ctx.repos.users.byId(row.user_id);
    if (!user) throw invalid();
    return user;
  }

  /** Whether a passkey answers a challenge handed out for `userId`'s second step (`AuthService.answerTicket`). */
  async proves(rp: RelyingParty, credential: RouteInput<'passkeyLogin'>['credential'], userId: number) {
    return this.prove(rp, credential, userId).then(
      () => true,
      (err: unknown) => {
        if (err instanceof AppError) return false;
        throw err;
      },
    );
  }

  /**
   * The user a passkey signs in without a password, for `AuthService.signIn` with no second step:
   * a passkey counts as both factors. Limited as a password login is: a failure counts as a failed
   * login of the credential at this address (of the address, for a credential not stored), which
   * `rateLimits.loginFailures` locks out for a while.
   */
  async login(rp: RelyingParty, body: RouteInput<'passkeyLogin'>, client: ClientInfo): Promise<UserRow> {
    const key = passkeyLoginKey(await this.keys.byCredential(body.credential.id));
    await this.ctx.limits.assertLoginAllowed(key, client.ip);
    let user: UserRow;
    try {
      user = await this.prove(rp, body.credential, 0);
    } catch (err) {
      await this.ctx.limits.loginFailed(key, client.ip);
      throw err;
    }
    await this.ctx.limits.loginSucceeded(key, client.ip);
    return user;
  }
}
