import * as z from 'zod';

/**
 * Signing in with an LDAP or Active Directory account (docs/protocol.md §8 "Directory"): how the
 * server reaches the directory, finds a person's entry and reads it. Kept on the server only; the
 * service account's password is sealed at rest and never answered.
 */

/** Where `{account}` stands in a DN template or a filter: the account typed, escaped for its place. */
export const LDAP_ACCOUNT_PLACEHOLDER = '{account}';

/** The longest CA certificate (PEM) the console takes. */
export const LDAP_CA_MAX = 16_384;

const text = (max: number) => z.string().trim().max(max);
/** An attribute's name (`displayName`, `mail`), or empty for none. */
const attribute = text(64).regex(/^(|[A-Za-z][A-Za-z0-9-]*)$/);
/** A search filter in parentheses, or empty. */
const filter = text(512).refine((s) => s === '' || (s.startsWith('(') && s.endsWith(')')), 'filter');
const onOff = z.union([z.literal(0), z.literal(1)]);

/** `/manage/ldapSet`: the whole directory setting at once. */
export const ManageLdapSetBody = z
  .object({
    /** 1: account + password sign-in also tries the directory (docs/product.md "Directory sign-in"). */
    enabled: onOff,
    /** `ldap://host:389` or `ldaps://host:636`. */
    url: text(512).regex(/^(|ldaps?:\/\/[^\s/?#]+\/?)$/),
    /** `direct`: bind as the person with `userDn`; `search`: bind as the service account, find the entry, bind as it. */
    mode: z.enum(['direct', 'search']),
    /** The person's DN with `{account}` in it, e.g. `uid={account},ou=people,dc=example,dc=org` (direct). */
    userDn: text(512),
    /** The service account's DN (search). */
    bindDn: text(512),
    /** The service account's password; left out keeps the one stored, '' removes it. Never answered. */
    bindPassword: z.string().max(256).optional(),
    /** Where the search starts (search), and what the entry's DN must end with (direct). */
    baseDn: text(512),
    /** The filter finding the entry, with `{account}` in it, e.g. `(uid={account})` (search). */
    userFilter: filter,
    /** 1: upgrade an `ldap://` connection with StartTLS before binding. */
    startTls: onOff,
    /** A PEM certificate to trust for the directory's TLS, or empty for the system's. */
    caCert: z.string().trim().max(LDAP_CA_MAX),
    /** 0 accepts any certificate (a test directory only). */
    rejectUnauthorized: onOff,
    /** The attribute holding the person's name (`displayName`, `cn`). */
    nameAttr: attribute,
    /** The attribute holding the e-mail address (`mail`). */
    emailAttr: attribute,
    /** The attribute naming the department (`departmentNumber`, `ou`, `department`). */
    departmentAttr: attribute,
    /** An entry matching this filter is refused as disabled, e.g. `(employeeType=disabled)`. */
    disabledFilter: filter,
    /** 1: a first sign-in makes the account; 0: only accounts linked already sign in. */
    createUsers: onOff,
    /** Seconds to wait for the directory before answering that it cannot be reached. */
    timeoutS: z.number().int().min(1).max(60),
  })
  .refine((b) => !b.enabled || b.url !== '', { path: ['url'], message: 'required' })
  .refine((b) => !b.enabled || b.mode !== 'direct' || b.userDn.includes(LDAP_ACCOUNT_PLACEHOLDER), {
    path: ['userDn'],
    message: 'placeholder',
  })
  .refine((b) => !b.enabled || b.mode !== 'search' || b.userFilter.includes(LDAP_ACCOUNT_PLACEHOLDER), {
    path: ['userFilter'],
    message: 'placeholder',
  })
  .refine((b) => !b.enabled || b.mode !== 'search' || b.baseDn !== '', { path: ['baseDn'], message: 'required' });

/** The directory setting as stored, less the service account's password. */
export type LdapSettings = Omit<z.output<typeof ManageLdapSetBody>, 'bindPassword'>;

/** `/manage/ldapGet` and `/manage/ldapSet`: the setting, and whether a service account password is stored. */
export interface ManagedLdap extends LdapSettings {
  bindPasswordSet: boolean;
}

/** The setting of a server that never configured a directory. */
export const LDAP_DEFAULTS: LdapSettings = {
  enabled: 0,
  url: '',
  mode: 'search',
  userDn: '',
  bindDn: '',
  baseDn: '',
  userFilter: '(uid={account})',
  startTls: 0,
  caCert: '',
  rejectUnauthorized: 1,
  nameAttr: 'displayName',
  emailAttr: 'mail',
  departmentAttr: 'departmentNumber',
  disabledFilter: '',
  createUsers: 1,
  timeoutS: 5,
};
