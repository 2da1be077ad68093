import {
  PASSKEY_OPTIONS_PER_MINUTE,
  PAT_INTERVAL_MS,
  PAT_PER_MINUTE_MAX,
  REPORTS_PER_HOUR_MAX,
  ROBOT_MESSAGES_PER_MINUTE,
  TWO_STEP_TRIES_PER_USER_MAX,
} from '@sparrow/protocol';
import { AppError } from '../errors';
import type { ConfigService } from '../modules/system/config-service';
import type { RateLimiter } from './rate-limit';

/** The rate limits of docs/protocol.md §1, read from the configuration so operators can change them. */
export class Limits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly config: ConfigService,
  ) {}

  /** Any call: 600 per minute per user (per IP before sign-in). */
  async anyCall(key: string): Promise<void> {
    const { perMinute } = this.config.get().rateLimits.anyCall;
    const { count, resetS } = await this.limiter.hit(`call:${key}`, 60);
    if (count > perMinute) throw new AppError('TooMany', { seconds: resetS });
  }

  /** The administration calls: their own budget per admin, beside every call's. */
  async manageCall(userId: number): Promise<void> {
    const { perMinute } = this.config.get().rateLimits.manage;
    const { count, resetS } = await this.limiter.hit(`manage:${userId}`, 60);
    if (count > perMinute) throw new AppError('TooMany', { seconds: resetS });
  }

  /** A group robot's posts: ROBOT_MESSAGES_PER_MINUTE a minute per robot, counted across nodes. */
  async robotPost(robotId: number): Promise<void> {
    const { count, resetS } = await this.limiter.hit(`robot:${robotId}`, 60);
    if (count > ROBOT_MESSAGES_PER_MINUTE) throw new AppError('TooMany', { seconds: resetS });
  }

  /** Refuses a login while an account+IP pair is locked out. */
  async assertLoginAllowed(account: string, ip: string): Promise<void> {
    const { count, resetS } = await this.limiter.peek(`login-lock:${account}:${ip}`);
    if (count > 0) throw new AppError('LoginLocked', { minutes: Math.max(1, Math.ceil(resetS / 60)), seconds: resetS });
  }

  /** Counts a failed login; the fifth within the window locks the pair for a whole window. */
  async loginFailed(account: string, ip: string): Promise<void> {
    const { max, windowS } = this.config.get().rateLimits.loginFailures;
    const { count } = await this.limiter.hit(`login:${account}:${ip}`, windowS);
    if (count >= max) {
      await this.limiter.reset(`login:${account}:${ip}`);
      await this.limiter.hit(`login-lock:${account}:${ip}`, windowS);
    }
  }

  async loginSucceeded(account: string, ip: string): Promise<void> {
    await this.limiter.reset(`login:${account}:${ip}`);
  }

  /**
   * Takes one second-step answer (a ticket's code or passkey) of a user, whatever the address:
   * counted up front with the limiter's atomic hit (across nodes), so that answers sent at once
   * from many addresses cannot all pass. Past TWO_STEP_TRIES_PER_USER_MAX in the login lockout's
   * window the user's second step is locked for the window's rest; a right answer clears the count.
   */
  async takeSecondStep(userId: number): Promise<void> {
    const { windowS } = this.config.get().rateLimits.loginFailures;
    const { count, resetS } = await this.limiter.hit(`two-step:${userId}`, windowS);
    if (count > TWO_STEP_TRIES_PER_USER_MAX) {
      throw new AppError('LoginLocked', { minutes: Math.max(1, Math.ceil(resetS / 60)), seconds: resetS });
    }
  }

  async secondStepPassed(userId: number): Promise<void> {
    await this.limiter.reset(`two-step:${userId}`);
  }

  /**
   * Takes one registration of the address: one per `registerInterval` seconds, and at most `perHour`
   * in an hour (0: no limit, either). Counted up front with the limiter's atomic hit (an INCR on
   * Redis, across nodes), before any code, invite or key derivation is spent: sign-ups sent at once
   * cannot all pass a check made before any of them is counted. Returns `release`, for a
   * registration that then fails: it frees the interval again, while the hour keeps counting it (a
   * window cannot take one back), so failed attempts count toward `perHour`.
   */
  async takeRegistration(ip: string, intervalS: number, perHour: number): Promise<() => Promise<void>> {
    if (intervalS > 0) {
      const { count, resetS } = await this.limiter.hit(`register:${ip}`, intervalS);
      if (count > 1) throw new AppError('RegisterThrottled', { seconds: resetS });
    }
    const release = async () => {
      if (intervalS > 0) await this.limiter.reset(`register:${ip}`);
    };
    if (perHour > 0) {
      const { count, resetS } = await this.limiter.hit(`register-hour:${ip}`, 3600);
      if (count > perHour) {
        await release();
        throw new AppError('RegisterThrottled', { seconds: resetS });
      }
    }
    return release;
  }

  /**
   * sendMessage: a burst of 60, then 10 per second (a token bucket), and at least `intervalS`
   * seconds between two sends when the operator sets sendInterval.
   */
  async sendMessage(userId: number, intervalS: number): Promise<void> {
    if (intervalS > 0) {
      const { count, resetS } = await this.limiter.hit(`send-interval:${userId}`, intervalS);
      if (count > 1) throw new AppError('SendTooFast', { seconds: resetS });
    }
    const { burst, perSecond } = this.config.get().rateLimits.sendMessage;
    const { ok, retryS } = await this.limiter.take(`send:${userId}`, burst, perSecond);
    if (!ok) throw new AppError('TooMany', { seconds: retryS });
  }

  /**
   * A pat (拍一拍): one of the same person in the same chat per PAT_INTERVAL_MS, and at most
   * PAT_PER_MINUTE_MAX a minute from one user, counted with the limiter's atomic hit (across nodes).
   */
  async pat(userId: number, chatKey: string, targetId: number): Promise<void> {
    const each = await this.limiter.hit(`pat:${userId}:${chatKey}:${targetId}`, PAT_INTERVAL_MS / 1000);
    if (each.count > 1) throw new AppError('PatTooFast', { seconds: each.resetS });
    const minute = await this.limiter.hit(`pat-minute:${userId}`, 60);
    if (minute.count > PAT_PER_MINUTE_MAX) throw new AppError('PatTooFast', { seconds: minute.resetS });
  }

  /**
   * A QR login code (扫码登录): at most `rateLimits.qrLogin.perMinute` a minute from one address,
   * across nodes, so that the codes waiting in the database stay few (a visible page asks for one
   * every two minutes).
   */
  async qrLoginCode(ip: string): Promise<void> {
    const { perMinute } = this.config.get().rateLimits.qrLogin;
    const { count, resetS } = await this.limiter.hit(`qr-login:${ip}`, 60);
    if (count > perMinute) throw new AppError('TooMany', { seconds: resetS });
  }

  /**
   * Passkey options (a WebAuthn challenge each): at most PASSKEY_OPTIONS_PER_MINUTE a minute from
   * one address, across nodes, so that the challenges waiting in the database stay few.
   */
  async passkeyOptions(ip: string): Promise<void> {
    const { count, resetS } = await this.limiter.hit(`passkey-options:${ip}`, 60);
    if (count > PASSKEY_OPTIONS_PER_MINUTE) throw new AppError('TooMany', { seconds: resetS });
  }

  /** A report (投诉): at most REPORTS_PER_HOUR_MAX an hour from one user, across nodes. */
  async report(userId: number): Promise<void> {
    const { count, resetS } = await this.limiter.hit(`report:${userId}`, 3600);
    if (count > REPORTS_PER_HOUR_MAX) throw new AppError('TooMany', { seconds: resetS });
  }

  close(): Promise<void> {
    return this.limiter.close();
  }
}
