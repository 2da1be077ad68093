import {
  CodeType,
  LOGIN_TICKET_TRIES_MAX,
  LOGIN_TICKET_TTL_MS,
  isEmail,
  isPhone,
  PICTURES,
  type Locale,
  type LoginResult,
  type RouteInput,
  type TwoStepPending,
  type UserInfo,
  SocketCloseCodes,
} from '@sparrow/protocol';
import type { ServerConfig } from '../../config';
import type { Limits } from '../../lib/limits';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { AppError, noSession } from '../../errors';
import { hashPassword, randomToken, sha256, verifyPassword } from '../../lib/crypto';
import { toUserInfo, type UserRepo, type UserRow } from '../user';
import type { QrService } from '../qr';
import type { ConfigService, InviteRepo } from '../system';
import type { CodeService } from './codes';
import { forceOffline, type Session, type SessionService, type SessionVia } from './session';
import type { KeywordScreen } from '../keywords';
import type { TwoStepService } from './two-step';
import { needsTwoStepSetup } from './two-step-policy';

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
  /** The client can take a second step (login's `two_step: 1`): it is answered a ticket, not refused. */
  twoStep?: boolean;
  /** The account as the sign-in named it: the login lockout's key, the second step's failures counted against it too. */
  loginKey?: string;
}

/** What AuthService is built from. */
export interface AuthParts {
  env: Pick<ServerConfig, 'registerPerHour'>;
  repos: Pick<Repos, 'users' | 'invites' | 'accounts' | 'twoStep'>;
  config: ConfigService;
  sessions: SessionService;
  limits: Limits;
  realtime: Realtime;
  keywords: Pick<KeywordScreen, 'name'>;
  now: () => number;
}

/**
 * The directory's part in a password sign-in (modules/ldap's LdapService): whether it answers for
 * an account, and the user it proves the password to be (null: wrong account or password).
 */
export interface DirectoryLogin {
  handles(user: UserRow | undefined): Promise<boolean>;
  verify(account: string, password: string, user: UserRow | undefined, client: ClientInfo): Promise<UserRow | null>;
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
    private readonly twoStep: Pick<TwoStepService, 'methods' | 'verify'>,
    private readonly directory?: DirectoryLogin,
  ) {
    this.users = ctx.repos.users;
    this.invites = ctx.repos.invites;
  }

  private readonly signedInListeners: Array<
    (user: UserRow, sessionId: number, client: ClientInfo, via: SessionVia) => Promise<void>
  > = [];

  /** Hears of every session `signIn` makes, once made (登录设备: a new device's notice). */
  onSignedIn(listener: (user: UserRow, sessionId: number, client: ClientInfo, via: SessionVia) => Promise<void>) {
    this.signedInListeners.push(listener);
  }

  /** A user's own record, with a fresh QR code naming `base`. */
  private info(row: UserRow, base: string): UserInfo {
    const info = toUserInfo(row, this.qr.code('user', row.id, base), this.ctx.now());
    if (needsTwoStepSetup(row, this.ctx.config.get().account.twoStepRequired)) info.two_step_setup = 1;
    return info;
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

  async login(body: RouteInput<'login'>, client: ClientInfo): Promise<LoginResult | TwoStepPending> {
    const key = body.account.toLowerCase();
    await this.ctx.limits.assertLoginAllowed(key, client.ip);
    const user = await this.users.byLogin(body.account);
    if (body.password !== undefined && (await this.directory?.handles(user)))
      return this.directoryLogin(body.account, body.password, user, client);
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
    return this.proven(user, { ...client, loginKey: key });
  }

  /**
   * The first factor is proven (a password, an e-mailed code, the directory's password): a user
   * without a second factor is signed in; one with a second factor is answered a ticket for
   * `loginTwoStep` when the client can take that step (`client.twoStep`), and refused
   * `TwoStepClientTooOld` when it cannot (a Raingad client), as is such a client of a user who must
   * set up a second factor the server requires. The login lockout's count of the
   * account (`client.loginKey`) is cleared only once the last step is passed.
   */
  async proven(user: UserRow, client: ClientInfo, via: SessionVia = ''): Promise<LoginResult | TwoStepPending> {
    if (user.status !== 1) throw new AppError('UserDisabled');
    // A Raingad client cannot set up a second factor the server requires: its session would serve nothing.
    if (!client.twoStep && needsTwoStepSetup(user, this.ctx.config.get().account.twoStepRequired))
      throw new AppError('TwoStepClientTooOld');
    if (user.two_step !== 1) {
      if (client.loginKey) await this.ctx.limits.loginSucceeded(client.loginKey, client.ip);
      return this.signIn(user, client, via);
    }
    if (!client.twoStep) throw new AppError('TwoStepClientTooOld');
    const ticket = randomToken(32);
    const now = this.ctx.now();
    await this.ctx.repos.twoStep.dropExpiredTickets(now);
    await this.ctx.repos.twoStep.insertTicket({
      ticket_hash: sha256(ticket),
      user_id: user.id,
      via,
      client: JSON.stringify({ ...client, loginKey: client.loginKey ?? user.account.toLowerCase() }),
      create_time: now,
      expires_at: now + LOGIN_TICKET_TTL_MS,
    });
    return { two_step: { ticket, methods: await this.twoStep.methods(user.id) } };
  }

  /**
   * The user a sign-in ticket is for, while it is good; null otherwise. For a second step that needs
   * to ask something first (a passkey's challenge for that user's credentials); nothing is used up.
   */
  async ticketUser(ticket: string): Promise<number | null> {
    const row = await this.ctx.repos.twoStep.liveTicket(sha256(ticket), this.ctx.now(), LOGIN_TICKET_TRIES_MAX);
    return row?.user_id ?? null;
  }

  /** The second step: a code of the authenticator app or a recovery code for the ticket. */
  async loginTwoStep(body: RouteInput<'loginTwoStep'>, client: ClientInfo): Promise<LoginResult> {
    return this.answerTicket(body.ticket, client, (user) => this.twoStep.verify(user.id, body.code ?? ''));
  }

  /**
   * Answers a sign-in ticket (`proven`) with a second factor that `answer` checks (an app's code, a
   * recovery code, a passkey), then signs in with the client the ticket was asked from. A wrong
   * answer counts against the ticket (gone after LOGIN_TICKET_TRIES_MAX tries), the user's second
   * step (TWO_STEP_TRIES_PER_USER_MAX from any addresses) and the login lockout; a ticket is used
   * once, by a compare-and-set, so that answers at once make one session.
   */
  async answerTicket(
    ticket: string,
    caller: ClientInfo,
    answer: (user: UserRow) => Promise<boolean>,
  ): Promise<LoginResult> {
    const repo = this.ctx.repos.twoStep;
    const row = await repo.liveTicket(sha256(ticket), this.ctx.now(), LOGIN_TICKET_TRIES_MAX);
    if (!row) throw new AppError('TwoStepTicketGone');
    const asked = JSON.parse(row.client) as ClientInfo;
    const client: ClientInfo = { ...asked, ip: caller.ip, clientId: caller.clientId ?? asked.clientId };
    const key = asked.loginKey ?? '';
    await this.ctx.limits.assertLoginAllowed(key, client.ip);
    // The try is taken before the answer is checked, on the ticket and on the user whatever the
    // address: answers sent at once cannot all pass a count read before any of them is added.
    if (!(await repo.takeTicketTry(row.id, this.ctx.now(), LOGIN_TICKET_TRIES_MAX))) {
      throw new AppError('TwoStepTicketGone');
    }
    await this.ctx.limits.takeSecondStep(row.user_id);
    const user = await this.users.byId(row.user_id);
    if (!user || user.status !== 1) {
      await repo.spendTicket(row.id);
      throw new AppError('UserDisabled');
    }
    if (!(await answer(user))) {
      await repo.dropSpentTicket(row.id, LOGIN_TICKET_TRIES_MAX);
      await this.ctx.limits.loginFailed(key, client.ip);
      throw new AppError('CodeInvalid', {}, { fields: ['code'] });
    }
    if (!(await repo.spendTicket(row.id))) throw new AppError('TwoStepTicketGone');
    await this.ctx.limits.loginSucceeded(key, client.ip);
    await this.ctx.limits.secondStepPassed(user.id);
    return this.signIn(user, client, row.via as SessionVia);
  }

  /**
   * Proves a signed-in caller is the user before a change of how they sign in (turning the
   * authenticator app off, adding or removing a passkey), throwing when it does not (docs/product.md
   * "Proving it is you"). `proof.password` is the account's own password when it has one; for an
   * account the directory answers for, the directory's password (DirectoryLogin `verify`); for an
   * account with no password at all (made through a provider's sign-in), a current code of the
   * authenticator app or a recovery code, used up. A wrong proof counts towards the login lockout of
   * the account from this address, as a sign-in's does, and is answered `OriginalPasswordWrong`.
   */
  async reauthenticate(user: UserRow, proof: { password: string }, client: ClientInfo): Promise<void> {
    const key = user.account.toLowerCase();
    await this.ctx.limits.assertLoginAllowed(key, client.ip);
    let ok: boolean;
    if (await this.directory?.handles(user)) {
      const found = await this.directory!.verify(user.account, proof.password, user, client);
      ok = found?.id === user.id;
    } else if (user.password_hash !== '') {
      ok = await verifyPassword(proof.password, user.password_hash);
    } else {
      ok = await this.twoStep.verify(user.id, proof.password);
    }
    if (!ok) {
      await this.ctx.limits.loginFailed(key, client.ip);
      throw new AppError('OriginalPasswordWrong', {}, { fields: ['password'] });
    }
  }

  /**
   * A password sign-in the directory answers for (docs/product.md "Directory sign-in"): a wrong
   * account or password counts towards the lockout as any failed login does. A directory that
   * cannot be reached is answered as a wrong password too, after the password work a local check
   * costs: which names have accounts must not show while it is down (the directory logs it).
   */
  private async directoryLogin(
    account: string,
    password: string,
    user: UserRow | undefined,
    client: ClientInfo,
  ): Promise<LoginResult | TwoStepPending> {
    const key = account.toLowerCase();
    const found = await this.directory!.verify(account, password, user, client).catch(async (err: unknown) => {
      if (!(err instanceof AppError && err.name === 'DirectoryUnavailable')) throw err;
      await verifyPassword(password, '');
      return null;
    });
    if (!found) {
      await this.ctx.limits.loginFailed(key, client.ip);
      throw new AppError('LoginFailed');
    }
    return this.proven(found, { ...client, loginKey: key }, 'ldap');
  }

  /**
   * Where every way in ends once the user is known and proven (password or code, a passkey, a
   * provider, the directory): the session made, the client's language kept, other sessions of the
   * device class ended when `multipleLogin` is off, the client's socket joined.
   */
  async signIn(user: UserRow, client: ClientInfo, via: SessionVia = ''): Promise<LoginResult> {
    if (user.status !== 1) throw new AppError('UserDisabled');
    // A client that names no language keeps the one the user last spoke.
    if (client.languageStated && user.language !== client.locale)
      await this.users.update(user.id, { language: client.locale });

    const session = await this.ctx.sessions.create(user.id, client, via);
    if (this.ctx.config.get().sysInfo.multipleLogin === 0) {
      await forceOffline(this.ctx, user.id, session.id, client.isMobile);
    }
    for (const listener of this.signedInListeners) await listener(user, session.id, client, via);
    // A session that serves only a password change or a second factor's setup joins no socket (as the gateway refuses it).
    const limited =
      user.must_change_password === 1 || needsTwoStepSetup(user, this.ctx.config.get().account.twoStepRequired);
    if (client.clientId && !limited) {
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
