import { timingSafeEqual } from 'node:crypto';
import {
  deviceName,
  qrLink,
  QR_LOGIN_VALID_MS,
  type QrLoginCode,
  type QrLoginScan,
  type QrLoginState,
  type WebSession,
} from '@sparrow/protocol';
import { AppError } from '../../errors';
import { randomToken, sha256 } from '../../lib/crypto';
import type { Limits } from '../../lib/limits';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { forceOffline, isMobileAgent, type DeviceService, type Session, type SessionService } from '../auth';
import type { ConfigService } from '../system';
import { toUserInfo } from '../user';
import { QrLoginStep, type QrLoginRepo } from './login-repo';
import type { QrService } from './service';

/** Where a signed-out page asks for a code from. */
export interface QrLoginClient {
  ip: string;
  userAgent: string;
  cid: string;
  /** The address the page reached the server at: the code's link names it. */
  base: string;
}

/** What QrLoginService is built from. */
export interface QrLoginParts {
  repos: Pick<Repos, 'qrLogins' | 'users'>;
  sessions: SessionService;
  realtime: Pick<Realtime, 'kick'>;
  limits: Pick<Limits, 'qrLoginCode'>;
  config: Pick<ConfigService, 'get'>;
  now: () => number;
}

/** Every refusal of a code: one that does not exist, expired, used, cancelled, or another's look alike. */
const gone = () => new AppError('QrLoginGone', {}, { fields: ['code'] });

/**
 * QR login (扫码登录, docs/protocol.md §6): a signed-out page's code, which a signed-in phone scans
 * and confirms, making the page a session of its own. Every step is a compare-and-set on the
 * code's row, so it holds across nodes and against confirms made at once.
 */
export class QrLoginService {
  private readonly codes: QrLoginRepo;

  constructor(
    private readonly ctx: QrLoginParts,
    private readonly qr: QrService,
    private readonly devices: Pick<DeviceService, 'list' | 'end' | 'signedIn'>,
  ) {
    this.codes = ctx.repos.qrLogins;
  }

  /** A fresh code for a signed-out page, and the secret it polls with. */
  async create(client: QrLoginClient): Promise<QrLoginCode> {
    await this.ctx.limits.qrLoginCode(client.ip);
    const code = randomToken(16);
    const secret = randomToken(32);
    const now = this.ctx.now();
    const expires = now + QR_LOGIN_VALID_MS;
    await this.codes.insert({
      code,
      secret_hash: sha256(secret),
      user_agent: client.userAgent.slice(0, 255),
      ip: client.ip.slice(0, 64),
      cid: client.cid.slice(0, 64),
      create_time: now,
      expires_at: expires,
    });
    return { qrUrl: qrLink(client.base, 'login', code), code, secret, expires };
  }

  /** Where a code stands, asked with its secret; a wrong secret is answered as a code that does not exist. */
  async state(code: string, secret: string, base: string): Promise<QrLoginState> {
    const row = await this.codes.byCode(code);
    const given = Buffer.from(sha256(secret));
    const held = Buffer.from(row?.secret_hash ?? '');
    if (!row || held.length !== given.length || !timingSafeEqual(given, held)) throw gone();
    const expired = row.expires_at <= this.ctx.now();
    switch (row.state) {
      case QrLoginStep.Confirmed: {
        const user = row.session_id ? await this.ctx.repos.users.byId(row.user_id) : undefined;
        const live = row.session_id > 0 && (await this.ctx.sessions.alive(row.session_id));
        if (!user || !live) return { state: 'expired' };
        return {
          state: 'confirmed',
          login: {
            authToken: `bearer ${secret}`,
            sessionId: row.session_id,
            userInfo: toUserInfo(user, this.qr.code('user', user.id, base), this.ctx.now()),
          },
        };
      }
      case QrLoginStep.Cancelled:
        return { state: 'cancelled' };
      case QrLoginStep.Scanned:
        if (expired) return { state: 'expired' };
        return { state: 'scanned', scanner: { realname: row.realname ?? '', avatar: row.avatar ?? '' } };
      default:
        return { state: expired ? 'expired' : 'waiting' };
    }
  }

  /**
   * The phone scanned a code: it is the scanner's to confirm or cancel, within QR_LOGIN_VALID_MS.
   * A session made by QR login scans none (see confirm).
   */
  async scan(session: Session, code: string): Promise<QrLoginScan> {
    if (session.viaQr) throw gone();
    const now = this.ctx.now();
    const row = await this.codes.scan(code, session.userId, now, now + QR_LOGIN_VALID_MS);
    if (!row) throw gone();
    return { device: deviceName(row.user_agent), ip: row.ip, expires: row.expires_at };
  }

  /**
   * The scanner confirms: the page becomes a session of the scanner's, made by QR login and
   * approved by this session. Only one confirm of a code succeeds; the others are refused as a
   * used code is. A session made by QR login confirms none: a web session taken over would
   * otherwise mint another that outlives its own end.
   */
  async confirm(session: Session, code: string): Promise<void> {
    if (session.viaQr) throw gone();
    const made = await this.codes.confirm(code, session.userId, this.ctx.now(), async (trx, row) => {
      const client = { cid: row.cid, isMobile: isMobileAgent(row.user_agent), userAgent: row.user_agent, ip: row.ip };
      return this.ctx.sessions.createApproved(trx, session.userId, client, row.secret_hash, session.id);
    });
    if (!made) throw gone();
    if (this.ctx.config.get().sysInfo.multipleLogin === 0) {
      await forceOffline(this.ctx, session.userId, made.sessionId, isMobileAgent(made.userAgent));
    }
    // Audited as a new device when it is one; no notice: a signed-in device of theirs just confirmed it.
    const client = { cid: made.cid, isMobile: isMobileAgent(made.userAgent), userAgent: made.userAgent, ip: made.ip };
    await this.devices.signedIn(session.user, made.sessionId, client, 'qr', true);
  }

  /** The scanner declines: the page shows the code cancelled. */
  async cancel(session: Session, code: string): Promise<void> {
    if (!(await this.codes.cancel(code, session.userId, this.ctx.now()))) throw gone();
  }

  /** The caller's other live sessions made by QR login (a web session does not list itself). */
  webSessions(session: Session): Promise<WebSession[]> {
    return this.devices.list(session.userId, { currentId: session.id, via: 'qr', exceptCurrent: true });
  }

  /** Ends one of the caller's sessions made by QR login; another's is answered as one that does not exist. */
  endWebSession(session: Session, sessionId: number): Promise<void> {
    return this.devices.end(session.userId, sessionId, 'device', 'qr');
  }
}
