import {
  DEFAULT_GLOBAL_CONFIG,
  isMomentsEntry,
  PICTURES,
  RATE_LIMITS,
  DEFAULT_LOCALE,
  LDAP_DEFAULTS,
  translate,
  type GlobalConfig,
  type LdapSettings,
  type Locale,
} from '@sparrow/protocol';
import { randomToken } from '../../lib/crypto';
import type { ConfigRepo } from './repo';

/** Rate limits an operator may change (docs/protocol.md §1); not part of globalConfig. */
export type RateLimitConfig = {
  sendMessage: { burst: number; perSecond: number };
  anyCall: { perMinute: number };
  loginFailures: { max: number; windowS: number };
  sendCode: { intervalS: number };
  manage: { perMinute: number };
  qrLogin: { perMinute: number };
};

/** What becomes of a user's account and data (docs/operations.md "Accounts"); not part of globalConfig. */
export type AccountConfig = {
  /** 1: a deleted account's messages are removed for everyone; 0: kept, shown as from 已注销用户. */
  removeMessages: 0 | 1;
  /** Days a deleted account's name stays taken; 0 frees it at once. */
  nameHoldDays: number;
  /** Days a finished data export stays downloadable. */
  exportDays: number;
  /** Who must have a second factor: 0 no one, 1 administrators, 2 everyone (docs/product.md "Two-step sign-in"). */
  twoStepRequired: 0 | 1 | 2;
};

/** The defaults of `account.*`. */
export const ACCOUNT_DEFAULTS: AccountConfig = {
  removeMessages: 0,
  nameHoldDays: 30,
  exportDays: 7,
  twoStepRequired: 0,
};

/** Everything stored in the `config` table. */
export interface StoredConfig extends GlobalConfig {
  rateLimits: RateLimitConfig;
  account: AccountConfig;
  /** The directory (modules/ldap): server-only, its service account's password sealed (`bindPasswordSealed`). */
  ldap: LdapSettings & { bindPasswordSealed: string };
}

const SECTIONS = [
  'sysInfo',
  'chatInfo',
  'fileUpload',
  'map',
  'compass',
  'demon_mode',
  'rateLimits',
  'account',
  'ldap',
] as const;
type Section = (typeof SECTIONS)[number];

const defaults = (): StoredConfig =>
  structuredClone({
    ...DEFAULT_GLOBAL_CONFIG,
    rateLimits: RATE_LIMITS as unknown as RateLimitConfig,
    account: ACCOUNT_DEFAULTS,
    ldap: { ...LDAP_DEFAULTS, bindPasswordSealed: '' },
  });

const VERSION_KEY = '_version';

/** A picture the operator gave: an address, not a name. */
const isLink = (icon: string) => /^(https?:\/\/|\/)/i.test(icon);
const SECRET_KEY = '_secret';

/**
 * The system configuration (docs/product.md §3 globalConfig): stored in the database, cached in memory, and
 * re-read when another process (the admin command, another node) bumps its version.
 */
export class ConfigService {
  private current: StoredConfig = defaults();
  private version = '';
  private secretValue = '';
  private poller: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(config: GlobalConfig) => void>();

  constructor(private readonly repo: ConfigRepo) {}

  /** Loads the stored configuration, creating the instance secret on first start. */
  async load(): Promise<void> {
    const rows = await this.repo.all();
    const stored = new Map(rows.map((r) => [r.key, r.value]));
    const next = defaults();
    for (const section of SECTIONS) {
      const raw = stored.get(section);
      if (raw === undefined) continue;
      const value: unknown = JSON.parse(raw);
      if (section === 'demon_mode') next.demon_mode = value === 1 ? 1 : 0;
      else Object.assign(next[section], value);
    }
    this.current = next;
    this.version = stored.get(VERSION_KEY) ?? '';
    // Another process starting at the same time may store its secret first: the first one stays.
    this.secretValue = stored.get(SECRET_KEY) || (await this.repo.keepFirst(SECRET_KEY, randomToken(32)));
  }

  /** The configuration as loaded. */
  get(): StoredConfig {
    return this.current;
  }

  /** The instance secret (HMAC of verification codes and QR tokens). */
  get secret(): string {
    return this.secretValue;
  }

  /**
   * globalConfig as `getSystemInfo` answers it, in `locale`; ICE credentials only for a signed-in
   * caller. Raingad clients draw the logo and each Discover icon as an image and show each entry's
   * name as it is: an unset logo is the served one, and the Moments entry is named in the reader's
   * language, with the served icon unless the operator gave one (docs/protocol.md §1 "Old clients").
   */
  publicConfig(signedIn: boolean, locale: Locale): GlobalConfig {
    const { rateLimits: _omit, account: _account, ldap: _ldap, ...config } = this.current;
    const shown: GlobalConfig = {
      ...config,
      sysInfo: { ...config.sysInfo, logo: config.sysInfo.logo || PICTURES.logo },
      compass: {
        ...config.compass,
        list: config.compass.list.map((item) =>
          isMomentsEntry(item)
            ? {
                ...item,
                name: translate(locale, 'compass.moments'),
                icon: isLink(item.icon) ? item.icon : PICTURES.moments,
              }
            : item,
        ),
      },
    };
    if (signedIn) return shown;
    return {
      ...shown,
      chatInfo: {
        ...shown.chatInfo,
        stun: shown.chatInfo.stun.map(({ urls }) => ({ urls })),
      },
    };
  }

  /**
   * Sets one value by dotted path (`chatInfo.redoTime`), keeping the type of the default at that
   * path; stores it, bumps the version and tells listeners.
   */
  async set(dottedPath: string, rawValue: string): Promise<StoredConfig> {
    const [section, ...rest] = dottedPath.split('.');
    if (!section || !(SECTIONS as readonly string[]).includes(section)) {
      throw new Error(`unknown configuration section: ${section ?? ''} (one of ${SECTIONS.join(', ')})`);
    }
    const next = structuredClone(this.current);
    if (rest.length === 0) {
      (next as unknown as Record<string, unknown>)[section] = coerce(rawValue, next[section as Section]);
    } else {
      let target = next[section as Section] as unknown as Record<string, unknown>;
      for (const key of rest.slice(0, -1)) {
        const child = target[key];
        if (typeof child !== 'object' || child === null) throw new Error(`no such setting: ${dottedPath}`);
        target = child as Record<string, unknown>;
      }
      const last = rest[rest.length - 1]!;
      if (!(last in target)) throw new Error(`no such setting: ${dottedPath}`);
      target[last] = coerce(rawValue, target[last]);
    }
    await this.save(section as Section, next);
    return this.current;
  }

  private async save(section: Section, next: StoredConfig): Promise<void> {
    const value = JSON.stringify(next[section]);
    const version = `${Date.now()}-${randomToken(6)}`;
    await this.repo.putAll([
      [section, value],
      [VERSION_KEY, version],
    ]);
    this.current = next;
    this.version = version;
    this.emit();
  }

  /** Calls `listener` with the public configuration after every change, wherever it was made. */
  onChange(listener: (config: GlobalConfig) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Re-reads the configuration when its version moved; every `ms`. */
  startPolling(ms: number): void {
    if (ms <= 0) return;
    this.poller = setInterval(() => {
      void this.checkVersion().catch(() => undefined);
    }, ms);
    this.poller.unref();
  }

  /** Reloads and notifies when another process changed the configuration. */
  async checkVersion(): Promise<boolean> {
    const version = (await this.repo.value(VERSION_KEY)) ?? '';
    if (version === this.version) return false;
    await this.load();
    this.emit();
    return true;
  }

  stop(): void {
    clearInterval(this.poller);
  }

  /** Every socket is told a change alike, in the source language (Raingad clients speak no other). */
  private emit(): void {
    const config = this.publicConfig(true, DEFAULT_LOCALE);
    for (const l of this.listeners) l(config);
  }
}

function coerce(raw: string, like: unknown): unknown {
  if (typeof like === 'number') {
    const n = Number(raw);
    if (!Number.isFinite(n)) throw new Error(`expected a number, got ${raw}`);
    return n;
  }
  if (typeof like === 'string') return raw;
  if (typeof like === 'boolean') return raw === 'true' || raw === '1';
  const parsed: unknown = JSON.parse(raw);
  if (Array.isArray(like) !== Array.isArray(parsed) || typeof parsed !== typeof like) {
    throw new Error(`expected ${Array.isArray(like) ? 'a JSON array' : 'a JSON object'}`);
  }
  return parsed;
}
