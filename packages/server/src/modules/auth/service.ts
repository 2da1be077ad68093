import {
  CodeType,
  isEmail,
  isPhone,
  PICTURES,
  type Locale,
  type LoginResult,
  type RouteInput,
  type UserInfo,
  SocketCloseCodes,
} from '@sparrow/protocol';
import type { ServerConfig } from '../../config';
import type { Limits } from '../../lib/limits';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { AppError, noSession } from '../../errors';
import { hashPassword, verifyPassword } from '../../lib/crypto';
import { toUserInfo, type UserRepo, type UserRow } from '../user';
import type { QrService } from '../qr';
import type { ConfigService, InviteRepo } from '../system';
import type { CodeService } from './codes';
import { forceOffline, type Session, type SessionService } from './session';
import type { KeywordScreen } from '../keywords';

/** Where a request came from, for sessions and limits. */
export interface ClientInfo {
  ip: string;
  userAgent: string;
  cid: string;
  isMobile: boolean;
  clientId?: string | undefined;
  /** The caller's language: notices to this user are written in it. */
  locale: Locale;
  /** The caller named its language (a client that has not chosen one sends none, or `undefined`). */
  languageStated: boolean;
  /** The address the client reached us at: links in its answers name it (http/public-url.ts). */
  base: string;
}

/** What AuthService is built from. */
export interface AuthParts {
  env: Pick<ServerConfig, 'registerPerHour'>;
  repos: Pick<Repos, 'users' | 'invites' | 'accounts'>;
  config: ConfigService;
  sessions: SessionService;
  limits: Limits;
  realtime: Realtime;
  keywords: Pick<KeywordScreen, 'name'>;
  now: () => number;
}

const ACCOUNT_CHARS = /^[a-zA-Z0-9_.@+-]+$/;

/** Accounts and sessions (docs/protocol.md §3 `/common/Pub/*`, editPassword, editAccount). */
export class AuthService {
  private readonly users: UserRepo;
  private readonly invites: InviteRepo;

  constructor(
    private readonly ctx: AuthParts,
    private readonly codes: CodeService,
    private readonly qr: QrService,
  ) {
    this.users = ctx.repos.users;
    this.invites = ctx.repos.invites;
  }

  /** A user's own record, with a fresh QR code naming `base`. */
  private info(row: UserRow, base: string): UserInfo {
    return toUserInfo(row, this.qr.code('user', row.id, base));
  }

  /** The session's own user record. */
  me(session: Session, base: string): UserInfo {
    return this.info(session.user, base);
  }

  async register(body: RouteInput<'register'>, client: ClientInfo): Promise<UserInfo> {
    const { sysInfo } = this.ctx.config.get();
    const account = body.account.toLowerCase();
    const form = { 1: 'form.phone', 2: 'form.email', 3: 'form.phoneOrEmail' } as const;
    const byEmail = isEmail(account);
    const byPhone = isPhone(account);
    if (sysInfo.regauth === 1 && !byPhone)
      throw new AppError('AccountForm', {}, { fields: ['account'] }).withForm(form[1]);
    if (sysInfo.regauth === 2 && !byEmail)
      throw new AppError('AccountForm', {}, { fields: ['account'] }).withForm(form[2]);
    if (sysInfo.regauth === 3 && !byEmail && !byPhone)
      throw new AppError('AccountForm', {}, { fields: ['account'] }).withForm(form[3]);
    if (sysInfo.regauth === 0 && !byEmail && !ACCOUNT_CHARS.test(account)) {
      throw new AppError('Validation', {}, { fields: ['account'] });
    }
    const realname = this.ctx.keywords.name(body.realname, 'realname');
    await this.freeHeldNames(account, body.email);
    if (await this.users.taken(account)) throw new AppError('AccountTaken', {}, { fields: ['account'] });
    if (body.email && !byEmail && (await this.users.taken(body.email))) {
      throw new AppError('AccountTaken', {}, { fields: ['email'] });
    }
    const release = await this.ctx.limits.takeRegistration(
      client.ip,
      sysInfo.registerInterval,
      this.ctx.env.registerPerHour,
    );
    try {
      const needsCode = sysInfo.regauth !== 0;
      if (needsCode) {
        if (!body.code) throw new AppError('CodeRequired', {}, { fields: ['code'] });
        await this.codes.consume([account], CodeType.Register, body.code);
      }
      if (sysInfo.regtype === 2) await this.useInvite(body.inviteCode);
      const now = this.ctx.now();
      const row = await this.users.insert({
        account,
        password_hash: await hashPassword(body.password),
        realname,
        email: byEmail ? account : (body.email ?? '').toLowerCase(),
        phone: byPhone ? account : '',
        avatar: PICTURES.person,
        sex: 2,
        motto: '',
        is_auth: needsCode ? 1 : 0,
        role: 0,
        status: 1,
        language: client.locale,
        create_time: now,
        update_time: now,
      });
      if (!row) throw new AppError('AccountTaken', {}, { fields: ['account'] });
      return this.info(row, client.base);
    } catch (err) {
      await release();
      throw err;
    }
  }

  /**
   * Frees these names where only a deleted account held them, and held them longer than
   * `account.nameHoldDays`: until then they stay taken (docs/product.md "Deleting my account").
   */
  private async freeHeldNames(...names: Array<string | undefined>): Promise<void> {
    const cutoff = this.ctx.now() - this.ctx.config.get().account.nameHoldDays * 86_400_000;
    for (const name of names) if (name) await this.ctx.repos.accounts.freeNames(name, cutoff);
  }

  private async useInvite(code: string | undefined): Promise<void> {
    if (!code) throw new AppError('InviteInvalid', {}, { fields: ['inviteCode'] });
    if (!(await this.invites.spendOne(code, this.ctx.now())))
      throw new AppError('InviteInvalid', {}, { fields: ['inviteCode'] });
  }

  async login(body: RouteInput<'login'>, client: ClientInfo): Promise<LoginResult> {
    const key = body.account.toLowerCase();
    await this.ctx.limits.assertLoginAllowed(key, client.ip);
    const user = await this.users.byLogin(body.account);
    let ok = false;
    // Without the account the password is checked all the same, against no hash: the answer's time must not tell.
    if (body.password !== undefined) ok = await verifyPassword(body.password, user?.password_hash ?? '');
    else if (user && body.code !== undefined) {
      ok = await this.codes
        .consume([body.account, user.account, user.email, user.phone], CodeType.Login, body.code)
        .then(() => true)
        .catch(() => false);
    }
    if (!user || !ok) {
      await this.ctx.limits.loginFailed(key, client.ip);
      throw new AppError(body.code !== undefined && body.password === undefined ? 'CodeInvalid' : 'LoginFailed');
    }
    if (user.status !== 1) throw new AppError('UserDisabled');
    await this.ctx.limits.loginSucceeded(key, client.ip);
    // A client that names no language keeps the one the user last spoke.
    if (client.languageStated && user.language !== client.locale)
      await this.users.update(user.id, { language: client.locale });

    const session = await this.ctx.sessions.create(user.id, client);
    if (this.ctx.config.get().sysInfo.multipleLogin === 0) {
      await forceOffline(this.ctx, user.id, session.id, client.isMobile);
    }
    if (client.clientId) {
      // A socket that has closed, or is not this user's, is no reason to refuse right credentials:
      // the client binds its next socket itself.
      await this.bindClient(client.clientId, {
        id: session.id,
        userId: user.id,
        isMobile: client.isMobile,
        user,
      }).catch((err: unknown) => {
        if (!(err instanceof AppError)) throw err;
      });
    }
    return { authToken: `bearer ${session.token}`, sessionId: session.id, userInfo: this.info(user, client.base) };
  }

  async logout(session: Session): Promise<void> {
    await this.ctx.sessions.revoke(session.id);
    await this.ctx.realtime.kick(session.userId, [session.id], SocketCloseCodes.SessionEnded);
  }

  /** Joins a live socket of this server to the session's user (docs/protocol.md bindUid, **secure**). */
  async bindClient(clientId: string, session: Session): Promise<void> {
    const conn = this.ctx.realtime.hub.get(clientId);
    // Another user's socket is answered as one that does not exist: a client id reveals nothing.
    if (!conn || (conn.userId !== null && conn.userId !== session.userId))
      throw new AppError('ClientNotLive', {}, { fields: ['client_id'] });
    await this.ctx.realtime.bind(conn, { sessionId: session.id, userId: session.userId, isMobile: session.isMobile });
    conn.boundOverHttp = true;
  }

  async sendCode(body: RouteInput<'sendCode'>, session: Session | null, locale: Locale): Promise<void> {
    const { account, type } = body;
    const sysInfo = this.ctx.config.get().sysInfo;
    const reachable = isEmail(account) || isPhone(account);
    switch (type) {
      case CodeType.Login: {
        const user = await this.users.byLogin(account);
        if (!user || user.status !== 1) throw new AppError('NoSuchAccount', {}, { fields: ['account'] });
        const to = reachable ? account : user.email || user.phone;
        if (!to) throw new AppError('AccountForm', {}, { fields: ['account'] }).withForm('form.phoneOrEmail');
        return this.codes.send(to, type, locale);
      }
      case CodeType.Register: {
        const form = sysInfo.regauth === 1 ? isPhone(account) : sysInfo.regauth === 2 ? isEmail(account) : reachable;
        if (!form)
          throw new AppError('AccountForm', {}, { fields: ['account'] }).withForm(regauthForm(sysInfo.regauth));
        await this.freeHeldNames(account);
        if (await this.users.taken(account)) throw new AppError('AccountTaken', {}, { fields: ['account'] });
        return this.codes.send(account, type, locale);
      }
      case CodeType.ChangePassword: {
        if (!session) throw noSession();
        const u = session.user;
        const mine = [u.account, u.email, u.phone].map((s) => s.toLowerCase());
        const to =
          mine.includes(account.toLowerCase()) && reachable
            ? account
            : u.email || u.phone || (isPhone(u.account) || isEmail(u.account) ? u.account : '');
        if (!to) throw new AppError('AccountForm', {}, { fields: ['account'] }).withForm('form.phoneOrEmail');
        return this.codes.send(to, type, locale);
      }
      case CodeType.ChangeAccount: {
        if (!session) throw noSession();
        const u = session.user;
        const own = [u.account, u.email, u.phone].filter(Boolean).map((s) => s.toLowerCase());
        if (own.includes(account.toLowerCase()) && u.is_auth) return this.codes.send(account, type, locale);
        if (!reachable) throw new AppError('AccountForm', {}, { fields: ['account'] }).withForm('form.phoneOrEmail');
        if (await this.users.taken(account, u.id)) throw new AppError('AccountTaken', {}, { fields: ['account'] });
        return this.codes.send(account, type, locale);
      }
      default:
        throw new AppError('Validation', {}, { fields: ['type'] });
    }
  }

  async editPassword(body: RouteInput<'editPassword'>, session: Session): Promise<void> {
    const user = session.user;
    if (body.originalPassword !== undefined) {
      if (!(await verifyPassword(body.originalPassword, user.password_hash))) {
        throw new AppError('OriginalPasswordWrong', {}, { fields: ['originalPassword'] });
      }
    } else {
      await this.codes.consume([user.account, user.email, user.phone], CodeType.ChangePassword, body.code ?? '');
    }
    await this.users.update(user.id, {
      password_hash: await hashPassword(body.password),
      must_change_password: 0,
      update_time: this.ctx.now(),
    });
    const others = await this.ctx.sessions.revokeOthers(user.id, session.id);
    await this.ctx.realtime.kick(user.id, others, SocketCloseCodes.SessionEnded);
  }

  async editAccount(body: RouteInput<'editAccount'>, session: Session, base: string): Promise<UserInfo> {
    const user = session.user;
    const next = body.account.toLowerCase();
    const byEmail = isEmail(next);
    if (!byEmail && !isPhone(next))
      throw new AppError('AccountForm', {}, { fields: ['account'] }).withForm('form.phoneOrEmail');
    if (await this.users.taken(next, user.id)) throw new AppError('AccountTaken', {}, { fields: ['account'] });
    if (user.is_auth) {
      await this.codes.consume([user.account, user.email, user.phone], CodeType.ChangeAccount, body.code);
    }
    await this.codes.consume([next], CodeType.ChangeAccount, body.newCode);
    await this.users.update(user.id, {
      account: next,
      ...(byEmail ? { email: next } : { phone: next }),
      is_auth: 1,
      update_time: this.ctx.now(),
    });
    const row = await this.users.byId(user.id);
    return this.info(row!, base);
  }
}

function regauthForm(regauth: number) {
  return regauth === 1 ? 'form.phone' : regauth === 2 ? 'form.email' : 'form.phoneOrEmail';
}
