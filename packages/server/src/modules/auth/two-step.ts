import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import {
  RECOVERY_CODE_COUNT,
  type AuditAction,
  type RecoveryCodes,
  type TotpSetup,
  type TwoStepMethod,
  type TwoStepStatus,
} from '@sparrow/protocol';
import type { Limits } from '../../lib/limits';
import type { Sealer } from '../../lib/sealed';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import { hmac } from '../../lib/crypto';
import type { ConfigService } from '../system';
import type { UserRow } from '../user';
import type { Session } from './session';
import { twoStepRequired } from './two-step-policy';
import type { TotpRow } from './two-step-repo';

/** What TwoStepService is built from. */
export interface TwoStepParts {
  repos: Pick<Repos, 'twoStep' | 'factors'>;
  config: Pick<ConfigService, 'get' | 'secret'>;
  sealer: Sealer;
  limits: Pick<Limits, 'assertLoginAllowed' | 'loginFailed' | 'loginSucceeded' | 'takeSecondStep' | 'secondStepPassed'>;
  now: () => number;
}

/** The audit log as this service writes to it (modules/admin/audit.ts): the user is the actor. */
export interface TwoStepAudit {
  append(actor: { adminId: number; ip: string }, action: AuditAction, target: string): Promise<void>;
}

/** The seconds of one TOTP step (RFC 6238's default, what every authenticator app uses). */
const PERIOD_S = 30;
/** Steps either side of now a code is accepted for: a phone's clock a little off still works. */
const WINDOW = 1;
/** Recovery codes' letters: no 0/o, 1/l/i to mistake for each other. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * Two-step sign-in with an authenticator app (docs/product.md "Two-step sign-in"): the seed sealed
 * at rest under `totp:<user id>`, a code good once (its step recorded by a compare-and-set), ten
 * recovery codes kept as their HMAC and each good once.
 */
export class TwoStepService {
  constructor(
    private readonly ctx: TwoStepParts,
    private readonly audit: TwoStepAudit,
  ) {}

  private get repo() {
    return this.ctx.repos.twoStep;
  }

  async status(user: UserRow): Promise<TwoStepStatus> {
    const summary = await this.ctx.repos.factors.summary(user.id);
    return { ...summary, required: twoStepRequired(user, this.ctx.config.get().account.twoStepRequired) };
  }

  /** How a ticket of this user may be answered. */
  async methods(userId: number): Promise<TwoStepMethod[]> {
    const { totp, passkeys } = await this.ctx.repos.factors.summary(userId);
    const methods: TwoStepMethod[] = totp ? ['totp', 'recovery'] : [];
    if (passkeys > 0) methods.push('passkey');
    return methods;
  }

  /** A new seed waiting for its first code; the QR's `otpauth://` address and the seed to type in. */
  async begin(session: Session): Promise<TotpSetup> {
    const user = session.user;
    const secret = new Secret({ size: 20 });
    const sealed = this.ctx.sealer.seal(secret.base32, context(user.id));
    if (!(await this.repo.beginTotp(user.id, sealed, this.ctx.now()))) throw new AppError('TwoStepAlreadyOn');
    const totp = new TOTP({
      issuer: this.ctx.config.get().sysInfo.name,
      label: user.account,
      secret,
      period: PERIOD_S,
    });
    return { uri: totp.toString(), secret: secret.base32 };
  }

  /** The setup's first code: two-step sign-in is on, and the recovery codes are answered this once. */
  async confirm(session: Session, code: string, ip: string): Promise<RecoveryCodes> {
    const user = session.user;
    const row = await this.repo.totpOf(user.id);
    if (!row) throw new AppError('TwoStepOff');
    if (row.enabled_at > 0) throw new AppError('TwoStepAlreadyOn');
    const step = this.stepOf(row, code);
    const codes = newRecoveryCodes();
    if (
      step === null ||
      !(await this.repo.enableTotp(user.id, row.secret, step, this.hashes(user.id, codes), this.ctx.now()))
    )
      throw new AppError('CodeInvalid', {}, { fields: ['code'] });
    await this.audit.append({ adminId: user.id, ip }, 'twoStepOn', String(user.id));
    return { codes };
  }

  /**
   * Ten new recovery codes for a code of the app; the old ones stop working. The code is one of the
   * user's second-step answers (Limits `takeSecondStep`, from any address), so a session in other
   * hands cannot guess its way to codes.
   */
  async renewCodes(session: Session, code: string, ip: string): Promise<RecoveryCodes> {
    const user = session.user;
    const row = await this.repo.totpOf(user.id);
    if (!row || row.enabled_at === 0) throw new AppError('TwoStepOff');
    await this.ctx.limits.takeSecondStep(user.id);
    const step = this.stepOf(row, code);
    const codes = newRecoveryCodes();
    if (step === null || !(await this.repo.renewCodes(user.id, step, this.hashes(user.id, codes), this.ctx.now())))
      throw new AppError('CodeInvalid', {}, { fields: ['code'] });
    await this.ctx.limits.secondStepPassed(user.id);
    await this.audit.append({ adminId: user.id, ip }, 'recoveryCodesNew', String(user.id));
    return { codes };
  }

  /**
   * Turns the authenticator app off: the user proven (`prove`, AuthService `reauthenticate`: the
   * password, or for an account without one another second-factor code) and a code (or a recovery
   * code) both. Wrong ones count towards the login lockout of the account from this address, as a
   * sign-in's do, and the code is one of the user's second-step answers from any address.
   */
  async disable(session: Session, code: string, ip: string, prove: () => Promise<void>): Promise<void> {
    const user = session.user;
    const key = user.account.toLowerCase();
    await this.ctx.limits.assertLoginAllowed(key, ip);
    const row = await this.repo.totpOf(user.id);
    if (!row || row.enabled_at === 0) throw new AppError('TwoStepOff');
    await prove();
    await this.ctx.limits.takeSecondStep(user.id);
    if (!(await this.verify(user.id, code))) {
      await this.ctx.limits.loginFailed(key, ip);
      throw new AppError('CodeInvalid', {}, { fields: ['code'] });
    }
    await this.ctx.limits.secondStepPassed(user.id);
    await this.repo.disableTotp(user.id);
    await this.audit.append({ adminId: user.id, ip }, 'twoStepOff', String(user.id));
  }

  /**
   * Whether `code` proves the user's second factor now, using it up: six digits are the app's code
   * (its step taken once), anything else a recovery code (spent once).
   */
  async verify(userId: number, code: string): Promise<boolean> {
    const row = await this.repo.totpOf(userId);
    if (!row || row.enabled_at === 0) return false;
    if (/^[0-9]{6}$/.test(code)) {
      const step = this.stepOf(row, code);
      return step !== null && (await this.repo.takeStep(userId, step, true));
    }
    return this.repo.useRecoveryCode(userId, this.hash(userId, code), this.ctx.now());
  }

  /** The step a code is of, within WINDOW of now and after the last one accepted; null when none. */
  private stepOf(row: TotpRow, code: string): number | null {
    const secret = Secret.fromBase32(this.ctx.sealer.open(row.secret, context(row.user_id)));
    const timestamp = this.ctx.now();
    const delta = TOTP.validate({ token: code, secret, period: PERIOD_S, timestamp, window: WINDOW });
    if (delta === null) return null;
    const step = TOTP.counter({ period: PERIOD_S, timestamp }) + delta;
    return step > row.last_step ? step : null;
  }

  private hashes(userId: number, codes: string[]): string[] {
    return codes.map((c) => this.hash(userId, c));
  }

  /** A recovery code's HMAC with the instance secret, as verification codes are kept. */
  private hash(userId: number, code: string): string {
    return hmac(this.ctx.config.secret, `recovery|${userId}|${code.toLowerCase().replace('-', '')}`);
  }
}

/** The sealer's context of a user's seed: a sealed seed copied to another user's row does not open. */
const context = (userId: number) => `totp:${userId}`;

/** RECOVERY_CODE_COUNT codes of ten letters and digits, shown as `xxxxx-xxxxx`. */
function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}
