import {
  isEmail,
  LDAP_DEFAULTS,
  PICTURES,
  REALNAME_MAX,
  type LdapSettings,
  type Locale,
  type ManagedLdap,
  type RouteInput,
} from '@sparrow/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import { atMostEvery } from '../../lib/at-most';
import type { Sealer } from '../../lib/sealed';
import type { Actor, AuditLog } from '../admin';
import type { UserRow } from '../user';
import type { ConfigService } from '../system';
import { LdapDirectory, type DirectoryEntry } from './directory';

/** The provider's name in `user_identities`. */
export const LDAP_PROVIDER = 'ldap';
/** What the service account's sealed password is bound to (lib/sealed.ts). */
const SEAL_CONTEXT = 'ldap:bind';

/** Who signs in: their address (the audit log's) and language (a new account's). */
export interface SignInClient {
  ip: string;
  locale: Locale;
}

/** What LdapService is built from. */
export interface LdapParts {
  repos: Pick<Repos, 'users' | 'identities' | 'departments'>;
  config: ConfigService;
  sealer: Sealer;
  log: Pick<FastifyBaseLogger, 'warn'>;
  now: () => number;
}

/**
 * Signing in with a directory account (docs/product.md "Directory sign-in") and its setting in the
 * console. Which accounts the directory answers for: while it is on, an account name no local
 * account has, and an account linked to a directory entry; a local account (an administrator made
 * at install, say) keeps its own password and signs in while the directory is down.
 */
export class LdapService {
  /**
   * The operator's one sign that the directory is down: a sign-in answers the person as a wrong
   * password would (AuthService.directoryLogin), so the log says why, at most once a minute.
   */
  private readonly warnUnavailable: (cause: unknown) => void;

  constructor(
    private readonly ctx: LdapParts,
    private readonly audit: AuditLog,
    private readonly directory = new LdapDirectory(),
  ) {
    this.warnUnavailable = atMostEvery(60_000, ctx.now, (cause: unknown) =>
      ctx.log.warn(
        { err: cause, url: this.settings.url },
        'the directory (LDAP) cannot be reached or refuses the service account; directory sign-ins fail until it answers',
      ),
    );
  }

  private get settings() {
    return this.ctx.config.get().ldap;
  }

  /** The setting as the console shows it: the service account's password only as whether one is stored. */
  managed(): ManagedLdap {
    const { bindPasswordSealed, ...shown } = { ...LDAP_DEFAULTS, ...this.settings };
    return { ...shown, bindPasswordSet: bindPasswordSealed !== '' };
  }

  /** Replaces the setting (audited `configSet`, target `ldap`); a password given is sealed, never logged. */
  async save(body: RouteInput<'manageLdapSet'>, actor: Actor): Promise<ManagedLdap> {
    const { bindPassword, ...settings } = body;
    const before = this.managed();
    const sealed =
      bindPassword === undefined
        ? this.settings.bindPasswordSealed
        : bindPassword === ''
          ? ''
          : this.ctx.sealer.seal(bindPassword, SEAL_CONTEXT);
    const next: LdapSettings & { bindPasswordSealed: string } = { ...settings, bindPasswordSealed: sealed };
    await this.ctx.config.set('ldap', JSON.stringify(next));
    const after = this.managed();
    await this.audit.append(actor, 'configSet', 'ldap', {
      from: before,
      to: after,
      ...(bindPassword !== undefined && { bindPassword: bindPassword === '' ? 'removed' : 'changed' }),
    });
    return after;
  }

  /** Whether a password sign-in of this account goes to the directory (`user`: the local account it names, if any). */
  async handles(user: UserRow | undefined): Promise<boolean> {
    if (this.settings.enabled !== 1) return false;
    if (!user) return true;
    return this.ctx.repos.identities.userHas(user.id, LDAP_PROVIDER);
  }

  /**
   * The user the directory proves `account` and `password` to be: the one linked to the entry
   * (its name, e-mail and department refreshed from it), or a new account on a first sign-in; null
   * for a wrong account or password. A disabled entry is refused (UserDisabled); a directory out of
   * reach answers DirectoryUnavailable within the setting's timeout, and is logged (warn, at most
   * once a minute).
   */
  async verify(account: string, password: string, user: UserRow | undefined, client: SignInClient) {
    const s = this.settings;
    const servicePassword = s.bindPasswordSealed ? this.ctx.sealer.open(s.bindPasswordSealed, SEAL_CONTEXT) : '';
    const answer = await this.directory.verify(s, servicePassword, account, password).catch((err: unknown) => {
      if (err instanceof AppError && err.name === 'DirectoryUnavailable') this.warnUnavailable(err.cause);
      throw err;
    });
    if ('refused' in answer) return null;
    const { entry } = answer;
    if (entry.disabled) throw new AppError('UserDisabled');
    const { identities, users } = this.ctx.repos;
    let link = await identities.find(LDAP_PROVIDER, entry.subject);
    if (!link) {
      if (user || s.createUsers !== 1) return null;
      const made = await this.create(account, entry, client);
      if (made) return made;
      // Another sign-in of the same person made the account first: theirs is the one.
      link = await identities.find(LDAP_PROVIDER, entry.subject);
      if (!link) throw new AppError('AccountTaken', {}, { fields: ['account'] });
    }
    // The account typed names someone else than the entry's user: the name is not this entry's to use.
    if (user && user.id !== link.user_id) return null;
    const row = await users.byId(link.user_id);
    if (!row) return null;
    await identities.used(link.id, entry.email.toLowerCase(), this.ctx.now());
    return this.refresh(row, entry);
  }

  private async create(account: string, entry: DirectoryEntry, client: SignInClient): Promise<UserRow | undefined> {
    const now = this.ctx.now();
    const email = await this.freeEmail(entry.email);
    const row = await this.ctx.repos.identities.createLinked(
      {
        account: account.toLowerCase(),
        password_hash: '',
        realname: nameOf(entry, account),
        email,
        phone: '',
        avatar: PICTURES.person,
        sex: 2,
        motto: '',
        is_auth: 0,
        role: 0,
        status: 1,
        language: client.locale,
        create_time: now,
        update_time: now,
      },
      { provider: LDAP_PROVIDER, subject: entry.subject, email: entry.email.toLowerCase() },
      now,
    );
    if (!row) return undefined;
    const depId = entry.department ? await this.ctx.repos.departments.named(entry.department.slice(0, 64), now) : 0;
    if (depId) await this.ctx.repos.departments.assign(row.id, depId, now);
    await this.audit.append({ adminId: row.id, ip: client.ip }, 'ldapCreate', `user:${row.id}`, {
      account: row.account,
      dn: entry.dn,
    });
    return { ...row, dep_id: depId };
  }

  /** The user's name, e-mail and department as the entry has them now. */
  private async refresh(row: UserRow, entry: DirectoryEntry): Promise<UserRow> {
    const now = this.ctx.now();
    const realname = entry.name ? nameOf(entry, row.account) : row.realname;
    const email =
      entry.email && entry.email.toLowerCase() !== row.email ? await this.freeEmail(entry.email, row.id) : '';
    const changes = {
      ...(realname !== row.realname && { realname }),
      ...(email && { email }),
    };
    if (Object.keys(changes).length) await this.ctx.repos.users.update(row.id, { ...changes, update_time: now });
    let depId = row.dep_id;
    if (entry.department) {
      depId = await this.ctx.repos.departments.named(entry.department.slice(0, 64), now);
      if (depId !== row.dep_id) await this.ctx.repos.departments.assign(row.id, depId, now);
    }
    return { ...row, ...changes, dep_id: depId };
  }

  /** The entry's address in lower case when it is one and no other user has it, else ''. */
  private async freeEmail(raw: string, userId = 0): Promise<string> {
    const email = raw.trim().toLowerCase();
    if (!email || !isEmail(email)) return '';
    return (await this.ctx.repos.users.taken(email, userId)) ? '' : email;
  }
}

function nameOf(entry: DirectoryEntry, account: string): string {
  return [...(entry.name.trim() || account)].slice(0, REALNAME_MAX).join('');
}
