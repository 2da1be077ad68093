import type { ConnectionOptions } from 'node:tls';
import { LDAP_ACCOUNT_PLACEHOLDER, type LdapSettings } from '@sparrow/protocol';
import type { Client, Entry } from 'ldapts';
import { AppError } from '../../errors';
import { loadLdap } from '../../lib/lazy';

/** A person's entry as a sign-in reads it. */
export interface DirectoryEntry {
  dn: string;
  /** What the link in `user_identities` names: the entry's `entryUUID` (OpenLDAP) or `objectGUID` (AD), else its DN. */
  subject: string;
  name: string;
  email: string;
  department: string;
  /** The entry matches the setting's `disabledFilter`. */
  disabled: boolean;
}

/** What a sign-in through the directory learned: the entry, or that the account or password is wrong. */
export type DirectoryAnswer = { entry: DirectoryEntry } | { refused: true };

/** A value placed into a DN (RFC 4514 §2.4): the characters that would end or change it escaped. */
export function escapeDnValue(value: string): string {
  let out = value.replace(/[\\,+"<>;=\0]/g, (c) => (c === '\0' ? '\\00' : `\\${c}`));
  if (out.startsWith(' ') || out.startsWith('#')) out = `\\${out}`;
  if (out.endsWith(' ') && !out.endsWith('\\ ')) out = `${out.slice(0, -1)}\\ `;
  return out;
}

/** A value placed into a search filter (RFC 4515 §3): `*`, `(`, `)`, `\` and NUL as hex escapes. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** An attribute's first value as text, its name matched without regard to case. */
function valueOf(entry: Entry, attribute: string): string {
  if (!attribute) return '';
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const raw = key === undefined ? undefined : entry[key];
  const first = Array.isArray(raw) ? raw[0] : raw;
  if (first === undefined) return '';
  return Buffer.isBuffer(first) ? first.toString('utf8') : first;
}

/** The entry's lasting id: entryUUID, or objectGUID as hex, else the DN in lower case. */
function subjectOf(entry: Entry): string {
  const uuid = valueOf(entry, 'entryUUID');
  if (uuid) return uuid.toLowerCase();
  const guidKey = Object.keys(entry).find((k) => k.toLowerCase() === 'objectguid');
  const guid = guidKey === undefined ? undefined : entry[guidKey];
  const raw = Array.isArray(guid) ? guid[0] : guid;
  if (Buffer.isBuffer(raw) && raw.length > 0) return `guid:${raw.toString('hex')}`;
  return entry.dn.toLowerCase();
}

/** The TLS options of `ldaps://` and StartTLS: the CA to trust, and whether an untrusted certificate is refused. */
function tlsOptionsOf(s: LdapSettings): ConnectionOptions {
  return { rejectUnauthorized: s.rejectUnauthorized === 1, ...(s.caCert && { ca: [s.caCert] }) };
}

/** DirectoryUnavailable, carrying what went wrong for the server's log (modules/ldap/service.ts), never the person's answer. */
function unavailable(cause: unknown): AppError {
  return Object.assign(new AppError('DirectoryUnavailable'), { cause });
}

function isInvalidCredentials(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 49;
}

/**
 * The LDAP side of a sign-in (`ldapts`): one connection per attempt, bounded by the setting's
 * timeout as a whole, closed at the end. Answers the entry once the password bound as it, `refused`
 * for an unknown account or a wrong password, and throws DirectoryUnavailable when the directory
 * cannot be reached or refuses the service account. No password is put into an error or a log.
 */
export class LdapDirectory {
  async verify(
    settings: LdapSettings,
    servicePassword: string,
    account: string,
    password: string,
  ): Promise<DirectoryAnswer> {
    // An empty password is an unauthenticated bind, which a directory accepts for any DN.
    if (!password) return { refused: true };
    const { Client } = await loadLdap();
    const ms = settings.timeoutS * 1000;
    const tlsOptions = tlsOptionsOf(settings);
    // ldapts speaks TLS from the start whenever it is given TLS options: only ldaps:// gets them here.
    const secure = settings.url.toLowerCase().startsWith('ldaps://');
    const client = new Client({
      url: settings.url,
      timeout: ms,
      connectTimeout: ms,
      strictDN: false,
      ...(secure && { tlsOptions }),
    });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(unavailable(`no answer within ${settings.timeoutS} s`)), ms);
    });
    try {
      return await Promise.race([this.attempt(client, settings, servicePassword, account, password), deadline]);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw unavailable(err);
    } finally {
      clearTimeout(timer);
      void client.unbind().catch(() => undefined);
    }
  }

  private async attempt(
    client: Client,
    s: LdapSettings,
    servicePassword: string,
    account: string,
    password: string,
  ): Promise<DirectoryAnswer> {
    if (s.startTls && s.url.toLowerCase().startsWith('ldap://')) {
      // The certificate is checked against the URL's host (Node's default for an upgraded socket is localhost).
      await client.startTLS({ ...tlsOptionsOf(s), host: new URL(s.url).hostname });
    }
    const attributes = ['entryUUID', 'objectGUID', s.nameAttr, s.emailAttr, s.departmentAttr].filter(Boolean);
    let dn: string;
    let disabled = false;
    if (s.mode === 'search') {
      try {
        await client.bind(s.bindDn, servicePassword);
      } catch (err) {
        // A service account the directory refuses is the operator's to fix, not the person's.
        if (isInvalidCredentials(err)) throw unavailable('the directory refused the service account');
        throw err;
      }
      const filter = s.userFilter.split(LDAP_ACCOUNT_PLACEHOLDER).join(escapeFilterValue(account));
      const { searchEntries } = await client.search(s.baseDn, {
        scope: 'sub',
        filter,
        attributes: ['dn'],
        sizeLimit: 2,
      });
      // No entry, or more than one: no person is named by this account.
      if (searchEntries.length !== 1) return { refused: true };
      dn = searchEntries[0]!.dn;
      // Read while bound as the service account: a person's own rights may not show the rule's attributes.
      disabled = await this.matches(client, dn, s.disabledFilter);
    } else {
      dn = s.userDn.split(LDAP_ACCOUNT_PLACEHOLDER).join(escapeDnValue(account));
    }
    try {
      await client.bind(dn, password);
    } catch (err) {
      if (isInvalidCredentials(err)) return { refused: true };
      throw err;
    }
    if (s.mode === 'direct') disabled = await this.matches(client, dn, s.disabledFilter);
    const { searchEntries } = await client.search(dn, { scope: 'base', filter: '(objectClass=*)', attributes });
    const entry = searchEntries[0] ?? { dn };
    return {
      entry: {
        dn,
        subject: subjectOf(entry),
        name: valueOf(entry, s.nameAttr),
        email: valueOf(entry, s.emailAttr),
        department: valueOf(entry, s.departmentAttr),
        disabled,
      },
    };
  }

  /** Whether the entry at `dn` matches `filter` (false for an empty one). */
  private async matches(client: Client, dn: string, filter: string): Promise<boolean> {
    if (!filter) return false;
    const { searchEntries } = await client.search(dn, { scope: 'base', filter, attributes: ['1.1'] });
    return searchEntries.length > 0;
  }
}
