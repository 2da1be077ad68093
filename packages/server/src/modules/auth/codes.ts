import { CODE_LENGTH, CODE_MAX_TRIES, CODE_TTL_MS, translate, type Locale } from '@sparrow/protocol';
import { AppError } from '../../errors';
import { hmac, numericCode } from '../../lib/crypto';
import type { Mailer } from '../../lib/mailer';
import type { ConfigService } from '../system';
import type { CodeRepo } from './code-repo';

/**
 * Verification codes (docs/protocol.md §3 sendCode): six digits, valid 300 s, one send per 60 s per
 * account, five wrong tries burn it, stored as an HMAC with the instance secret.
 */
export class CodeService {
  constructor(
    private readonly codes: CodeRepo,
    private readonly config: ConfigService,
    private readonly mailer: Mailer,
    private readonly now: () => number,
  ) {}

  private hash(account: string, type: number, code: string): string {
    return hmac(this.config.secret, `${account.toLowerCase()}|${type}|${code}`);
  }

  /** Creates and delivers a code for `account`; refuses a second send within the interval. */
  async send(account: string, type: number, locale: Locale): Promise<void> {
    const key = account.toLowerCase();
    const now = this.now();
    const intervalMs = this.config.get().rateLimits.sendCode.intervalS * 1000;
    const last = await this.codes.lastSentAt(key);
    if (last !== undefined && now - last < intervalMs) {
      throw new AppError('CodeThrottled', { seconds: Math.ceil((intervalMs - (now - last)) / 1000) });
    }
    const code = numericCode(CODE_LENGTH);
    // A new code replaces the one sent before: only the latest message in the inbox works.
    await this.codes.retireUnused(key, type);
    await this.codes.insert({
      account: key,
      type,
      code_hash: this.hash(key, type, code),
      tries: 0,
      used: 0,
      expires_at: now + CODE_TTL_MS,
      create_time: now,
    });
    const name = this.config.get().sysInfo.name;
    await this.mailer.deliver({
      to: account,
      subject: translate(locale, 'code.subject', { name }),
      text: translate(locale, 'code.body', { code, minutes: CODE_TTL_MS / 60_000 }),
    });
  }

  /**
   * Consumes a code sent to one of `accounts` for `type`; throws CodeInvalid when none matches.
   * A wrong code counts a try against the newest live code.
   */
  async consume(accounts: string[], type: number, code: string): Promise<string> {
    const keys = [...new Set(accounts.filter(Boolean).map((a) => a.toLowerCase()))];
    if (keys.length === 0) throw new AppError('CodeInvalid');
    const now = this.now();
    const live = await this.codes.live(keys, type, now, CODE_MAX_TRIES);
    const match = live.find((row) => row.code_hash === this.hash(row.account, type, code));
    if (!match) {
      const newest = live[0];
      if (newest) await this.codes.setTries(newest.id, newest.tries + 1);
      throw new AppError('CodeInvalid');
    }
    // Two requests racing with the same code: only the one that marked it used may go on.
    if (!(await this.codes.spend(match.id))) throw new AppError('CodeInvalid');
    return match.account;
  }
}
