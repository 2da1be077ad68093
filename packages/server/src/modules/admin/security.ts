import type { AccessToken, ManagedUserSecurity } from '@sparrow/protocol';
import { ok } from '../../http/envelope';
import type { Handlers } from '../../http/route';
import type { Repos } from '../../repos';
import type { DeviceService } from '../auth';
import { type Actor, type AuditLog } from './audit';
import type { AdminUsers } from './users';

/** What the console asks of a user's personal access tokens (auth's AccessTokenService). */
export interface TokenPort {
  list(userId: number): Promise<AccessToken[]>;
  revoke(userId: number, id: number, actor: Actor): Promise<void>;
}

/**
 * A user's sign-in security as an admin manages it (the console's user page): their second factors
 * and live sessions and personal access tokens, ending one session (`sessionEnd`), revoking a token
 * (`tokenRevoke`), and resetting every second factor
 * (`twoStepReset`), which also ends every session: a lost or stolen device may be one of them.
 */
export class AdminSecurity {
  constructor(
    private readonly repos: Pick<Repos, 'factors'>,
    private readonly users: Pick<AdminUsers, 'byId'>,
    private readonly devices: Pick<DeviceService, 'withAddresses' | 'end' | 'endOthers'>,
    private readonly audit: AuditLog,
    private readonly tokens: TokenPort,
  ) {}

  /** The user's factors and live sessions, newest first. */
  async of(userId: number): Promise<ManagedUserSecurity> {
    const user = await this.users.byId(userId);
    const [factors, sessions, tokens] = await Promise.all([
      this.repos.factors.summary(user.id),
      this.devices.withAddresses(user.id),
      this.tokens.list(user.id),
    ]);
    return {
      two_step: user.two_step === 1 ? 1 : 0,
      totp: factors.totp,
      recovery_left: factors.recoveryLeft,
      passkeys: factors.passkeys,
      sessions,
      tokens,
    };
  }

  /** Ends one live session of the user; one of another user, or ended already, is answered as missing. */
  async endSession(userId: number, sessionId: number, actor: Actor): Promise<void> {
    const user = await this.users.byId(userId);
    await this.devices.end(user.id, sessionId, 'ended');
    await this.audit.append(actor, 'sessionEnd', `user:${user.id}`, { account: user.account, session_id: sessionId });
  }

  /** Revokes one personal access token of the user; one of another user, or revoked already, is answered as missing. */
  async revokeToken(userId: number, id: number, actor: Actor): Promise<void> {
    const user = await this.users.byId(userId);
    await this.tokens.revoke(user.id, id, actor);
  }

  /** Removes every second factor of the user (users.two_step becomes 0) and ends every session. */
  async resetTwoStep(userId: number, actor: Actor): Promise<void> {
    const user = await this.users.byId(userId);
    await this.repos.factors.resetAll(user.id);
    const ended = await this.devices.endOthers(user.id, 0, 'ended');
    await this.audit.append(actor, 'twoStepReset', `user:${user.id}`, { account: user.account, sessions: ended });
  }
}

/** `/manage/userSecurity`, `/manage/sessionEnd`, `/manage/tokenRevoke`, `/manage/twoStepReset` (docs/protocol.md §8). */
export function adminSecurityRoutes(security: AdminSecurity): Handlers {
  return {
    manageUserSecurity: async ({ body }) => security.of(body.user_id),
    manageSessionEnd: async ({ body, session, req }) => {
      await security.endSession(body.user_id, body.session_id, { adminId: session.userId, ip: req.ip });
      return ok(null, { msg: 'ok.sessionEnded' });
    },
    manageTokenRevoke: async ({ body, session, req }) => {
      await security.revokeToken(body.user_id, body.id, { adminId: session.userId, ip: req.ip });
      return null;
    },
    manageTwoStepReset: async ({ body, session, req }) => {
      await security.resetTwoStep(body.user_id, { adminId: session.userId, ip: req.ip });
      return ok(null, { msg: 'ok.twoStepReset' });
    },
  };
}
