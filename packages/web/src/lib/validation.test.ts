import { code, email, isEmail as zodIsEmail, isPhone as zodIsPhone, phone } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import {
  checkLoginPassword,
  checkAccount,
  checkCode,
  checkEmailOrPhone,
  checkMotto,
  checkOptionalEmail,
  checkPassword,
  checkPatSuffix,
  checkRealname,
  checkRepeat,
  isEmail,
  isPhone,
} from './validation';

const emails = [
  'a@b.co',
  'first.last+tag@example.com',
  'x_y@sub.domain.org',
  'bad',
  'a@b',
  '.a@b.co',
  'a..b@c.de',
  'a@b.c',
  ' spaced@ex.com ',
  `${'a'.repeat(120)}@example.com`,
];
const phones = ['13800138000', '+8613800138000', '12345', '123456', '1234567890123456', '138-0013', ' 13800138000 '];
const codes = ['123456', '12345', '1234567', 'abcdef', ' 123456 '];

describe('inline validation', () => {
  it('agrees with protocol on what an email is', () => {
    for (const e of emails) {
      expect(isEmail(e), e).toBe(zodIsEmail(e));
      expect(isEmail(e), e).toBe(email.safeParse(e).success);
    }
  });

  it('agrees with protocol on what a phone number is', () => {
    for (const p of phones) {
      expect(isPhone(p), p).toBe(zodIsPhone(p));
      expect(isPhone(p), p).toBe(phone.safeParse(p).success);
    }
  });

  it('agrees with protocol on what a verification code is', () => {
    for (const c of codes) expect(checkCode(c) === null, c).toBe(code.safeParse(c).success);
  });

  it('applies docs/product.md §5: account 4–32, password 6–16, passwords match', () => {
    expect(checkAccount('abc')?.key).toBe('validation.accountLength');
    expect(checkAccount('abcd')).toBeNull();
    expect(checkAccount('a'.repeat(32))).toBeNull();
    expect(checkAccount('a'.repeat(33))?.params).toEqual({ min: 4, max: 32 });
    expect(checkPassword('12345')?.key).toBe('validation.passwordLength');
    expect(checkPassword('123456')).toBeNull();
    expect(checkPassword('1'.repeat(16))).toBeNull();
    expect(checkPassword('1'.repeat(17))?.params).toEqual({ min: 6, max: 16 });
    // Signing in takes a directory's password too, of any length protocol's LoginBody takes.
    expect(checkLoginPassword('')?.key).toBe('validation.passwordLength');
    expect(checkLoginPassword('12345')).toBeNull();
    expect(checkLoginPassword('1'.repeat(128))).toBeNull();
    expect(checkLoginPassword('1'.repeat(129))?.params).toEqual({ min: 1, max: 128 });
    expect(checkRepeat('secret1', 'secret2')?.key).toBe('validation.passwordMismatch');
    expect(checkRepeat('secret1', 'secret1')).toBeNull();
  });

  it('asks for the account form sysInfo.regauth names', () => {
    expect(checkAccount('alice', 1)?.key).toBe('validation.phone');
    expect(checkAccount('13800138000', 1)).toBeNull();
    expect(checkAccount('alice', 2)?.key).toBe('validation.email');
    expect(checkAccount('alice@example.com', 2)).toBeNull();
    expect(checkAccount('alice', 3)?.key).toBe('validation.phoneOrEmail');
    expect(checkAccount('13800138000', 3)).toBeNull();
    expect(checkAccount('alice@example.com', 3)).toBeNull();
  });

  it('checks names, mottos, optional emails and new accounts', () => {
    expect(checkRealname('  ')?.key).toBe('validation.realnameLength');
    expect(checkRealname('小明')).toBeNull();
    expect(checkMotto('x'.repeat(121))?.key).toBe('validation.mottoLength');
    // A pat suffix counts characters as the server's schema does: sixteen family emoji fit.
    expect(checkPatSuffix('的肩膀')).toBeNull();
    expect(checkPatSuffix('👨‍👩‍👧'.repeat(16))).toBeNull();
    expect(checkPatSuffix('肩'.repeat(17))?.key).toBe('pat.suffixLength');
    expect(checkOptionalEmail('')).toBeNull();
    expect(checkOptionalEmail('nope')?.key).toBe('validation.email');
    expect(checkEmailOrPhone('nope')?.key).toBe('validation.phoneOrEmail');
    expect(checkEmailOrPhone('13800138000')).toBeNull();
  });
});
