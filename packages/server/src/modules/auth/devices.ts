import {
  deviceName,
  SocketCloseCodes,
  type DeviceSession,
  type EventLine,
  type SessionViaName,
} from '@sparrow/protocol';
import { AppError } from '../../errors';
import { NO_PLACE, placeOf, type Place } from '../../lib/ip-region';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import type { ConfigService } from '../system';
import type { UserRow } from '../user';
import { deviceKey } from './device-key';
import type { SessionClient, SessionService, SessionVia } from './session';

/** The notice a user's other devices get of a sign-in from a new one. */
export type NewDeviceLine = Extract<EventLine, { event: 'signInNewDevice' }>;

/** What DeviceService tells others: the notice's push and the audit log (both built in services.ts). */
export interface DevicePorts {
  /** Pushes the `system` notice to the user's sockets but `exceptClientId`'s. */
  notify(user: UserRow, line: NewDeviceLine, exceptClientId: string | undefined): Promise<void>;
  /** Appends an audit row made by `actorId` (the user themself for their own devices) from `ip`. */
  audit(
    actor: { adminId: number; ip: string },
    action: 'signInNewDevice' | 'sessionEnd',
    target: string,
    detail: Record<string, unknown>,
  ): Promise<void>;
}

/** What DeviceService is built from. */
export interface DeviceParts {
  repos: Pick<Repos, 'devices'>;
  sessions: Pick<SessionService, 'liveOf' | 'revokeOwn' | 'revokeOthers'>;
  realtime: Pick<Realtime, 'kick'>;
  config: Pick<ConfigService, 'get'>;
  now: () => number;
}

/** Whose sessions, and who asks: `currentId` is marked; `via` narrows to one way in (QR login's 网页端已登录). */
export interface SessionQuery {
  currentId?: number;
  via?: SessionVia;
  /** Leaves `currentId` out of the list. */
  exceptCurrent?: boolean;
}

/**
 * 登录设备 (docs/product.md "Signed-in devices"): a user's live sessions with their devices, ending
 * them (the ended device's sockets closed at once, on whichever node holds them), and the notice of
 * a sign-in from a device the user had not signed in on before. QR login's 网页端已登录 lists and
 * ends its sessions through the same methods; the console lists and ends anyone's.
 */
export class DeviceService {
  constructor(
    private readonly ctx: DeviceParts,
    private readonly ports: DevicePorts,
  ) {}

  /** Where an address is, while `sysInfo.ipregion` is on: off, no address is looked up. */
  place(ip: string): Place {
    return this.ctx.config.get().sysInfo.ipregion === 1 ? placeOf(ip) : NO_PLACE;
  }

  /** A user's live sessions, newest first, each with its device, way in and place. */
  async list(userId: number, query: SessionQuery = {}): Promise<DeviceSession[]> {
    return (await this.withAddresses(userId, query)).map(({ ip: _ip, ...s }) => s);
  }

  /** As `list`, with the address each signed in from (the console's view). */
  async withAddresses(userId: number, query: SessionQuery = {}): Promise<Array<DeviceSession & { ip: string }>> {
    const rows = await this.ctx.sessions.liveOf(userId, query.via);
    return rows
      .filter((r) => !(query.exceptCurrent && r.id === query.currentId))
      .map((r) => ({
        session_id: r.id,
        device: deviceName(r.user_agent),
        via: r.via as SessionViaName,
        ...this.place(r.ip),
        create_time: r.create_time,
        last_seen: r.last_seen,
        current: r.id === query.currentId,
        ip: r.ip,
      }));
  }

  /**
   * Ends one live session of this user (one made `via` that way when given) and closes its sockets,
   * telling them why (`reason`); another user's, or one already ended, is answered as missing.
   */
  async end(userId: number, sessionId: number, reason: 'device' | 'ended', via?: SessionVia): Promise<void> {
    if (!(await this.ctx.sessions.revokeOwn(userId, sessionId, via)))
      throw new AppError('NotFound', {}, { fields: ['session_id'] });
    await this.kick(userId, [sessionId], reason);
  }

  /** Ends every live session of this user but `keepId` (0: every one); answers how many. */
  async endOthers(userId: number, keepId: number, reason: 'device' | 'ended' = 'device'): Promise<number> {
    const ended = await this.ctx.sessions.revokeOthers(userId, keepId);
    await this.kick(userId, ended, reason);
    return ended.length;
  }

  private kick(userId: number, sessionIds: number[], reason: 'device' | 'ended'): Promise<void> {
    return this.ctx.realtime.kick(userId, sessionIds, SocketCloseCodes.SessionEnded, {
      type: 'offline',
      data: { id: userId, client_id: '', isMobile: false, reason },
    });
  }

  /**
   * After a session is made: remembers its device and, for a device the user had not signed in on
   * while they had signed in on another, audits `signInNewDevice` and (unless `quiet`: QR login,
   * which a signed-in device of theirs has just confirmed) tells their other devices. Of sign-ins of
   * one new device at once exactly one is new (DeviceRepo.remember).
   */
  async signedIn(
    user: UserRow,
    sessionId: number,
    client: SessionClient & { clientId?: string | undefined },
    via: SessionVia,
    quiet = false,
  ): Promise<void> {
    const now = this.ctx.now();
    const seen = await this.ctx.repos.devices.remember(user.id, deviceKey(client.userAgent, client.cid), now);
    if (!seen.fresh || !seen.hadOthers) return;
    const device = deviceName(client.userAgent);
    const where = this.place(client.ip);
    await this.ports.audit({ adminId: user.id, ip: client.ip }, 'signInNewDevice', `user:${user.id}`, {
      session_id: sessionId,
      ...device,
      via,
      ...where,
    });
    if (quiet) return;
    await this.ports.notify(
      user,
      { event: 'signInNewDevice', session_id: sessionId, ...device, ...where, at: now },
      client.clientId,
    );
  }
}
