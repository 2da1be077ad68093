import {
  ACCOUNT_MAX,
  ACCOUNT_MIN,
  CODE_LENGTH,
  LOGIN_PASSWORD_MAX,
  MOTTO_MAX,
  PAT_SUFFIX_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  REALNAME_MAX,
  REALNAME_MIN,
  withinGraphemes,
  type GlobalConfig,
} from '@sparrow/protocol';
import type { MessageKey } from '../i18n/keys';

/*
 * The same rules as protocol's field schemas (api/fields.ts), written without zod so that the
 * login and register screens do not load it before they paint. validation.test.ts checks that
 * both agree on the same samples.
 */
const PHONE = /^\+?[0-9]{6,15}$/;
const EMAIL = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const CODE = new RegExp(`^[0-9]{${CODE_LENGTH}}$`);
const EMAIL_MAX = 128;

const within = (v: string, min: number, max: number) => v.length >= min && v.length <= max;

export function isPhone(value: string): boolean {
  return PHONE.test(value.trim());
}

export function isEmail(value: string): boolean {
  const v = value.trim();
  return v.length <= EMAIL_MAX && EMAIL.test(v);
}

/** A validation failure as a message key and its parameters; null when the value is fine. */
export type Problem = { key: MessageKey; params?: Record<string, number> } | null;

type Regauth = GlobalConfig['sysInfo']['regauth'];

/** The account rule of docs/product.md §5 plus the form sysInfo.regauth asks for (docs/protocol.md §2). */
export function checkAccount(value: string, regauth: Regauth = 0): Problem {
  const v = value.trim();
  if (regauth === 1 && !isPhone(v)) return { key: 'validation.phone' };
  if (regauth === 2 && !isEmail(v)) return { key: 'validation.email' };
  if (regauth === 3 && !isPhone(v) && !isEmail(v)) return { key: 'validation.phoneOrEmail' };
  if (!within(v, ACCOUNT_MIN, ACCOUNT_MAX)) {
    return { key: 'validation.accountLength', params: { min: ACCOUNT_MIN, max: ACCOUNT_MAX } };
  }
  return null;
}

export function checkPassword(value: string): Problem {
  return within(value, PASSWORD_MIN, PASSWORD_MAX)
    ? null
    : { key: 'validation.passwordLength', params: { min: PASSWORD_MIN, max: PASSWORD_MAX } };
}

/** A password to sign in with: a directory's may be longer than one Sparrow sets. */
export function checkLoginPassword(value: string): Problem {
  return within(value, 1, LOGIN_PASSWORD_MAX)
    ? null
    : { key: 'validation.passwordLength', params: { min: 1, max: LOGIN_PASSWORD_MAX } };
}

export function checkRepeat(first: string, second: string): Problem {
  return first === second ? null : { key: 'validation.passwordMismatch' };
}

export function checkRealname(value: string): Problem {
  const v = value.trim();
  return v.length >= REALNAME_MIN && withinGraphemes(v, REALNAME_MAX)
    ? null
    : { key: 'validation.realnameLength', params: { min: REALNAME_MIN, max: REALNAME_MAX } };
}

export function checkCode(value: string): Problem {
  return CODE.test(value.trim()) ? null : { key: 'validation.code', params: { length: CODE_LENGTH } };
}

export function checkMotto(value: string): Problem {
  return withinGraphemes(value.trim(), MOTTO_MAX)
    ? null
    : { key: 'validation.mottoLength', params: { max: MOTTO_MAX } };
}

/** A pat suffix (拍一拍后缀): empty clears it. */
export function checkPatSuffix(value: string): Problem {
  return withinGraphemes(value.trim(), PAT_SUFFIX_MAX)
    ? null
    : { key: 'pat.suffixLength', params: { max: PAT_SUFFIX_MAX } };
}

/** An optional email: empty clears it, otherwise it must be valid. */
export function checkOptionalEmail(value: string): Problem {
  const v = value.trim();
  return v === '' || isEmail(v) ? null : { key: 'validation.email' };
}

/** A new account to bind: an email or a phone. */
export function checkEmailOrPhone(value: string): Problem {
  const v = value.trim();
  return isEmail(v) || isPhone(v) ? null : { key: 'validation.phoneOrEmail' };
}

export function checkRequired(value: string, key: MessageKey): Problem {
  return value.trim() ? null : { key };
}

/** The first problem of a form's fields, keyed by field name. */
export type Problems<F extends string> = Partial<Record<F, Problem>>;

export function hasProblems<F extends string>(problems: Problems<F>): boolean {
  return Object.values(problems).some((p) => p != null);
}
