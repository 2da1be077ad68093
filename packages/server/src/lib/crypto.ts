import { createHmac, hash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LEN = 32;

/** `scrypt$<salt b64>$<key b64>` for a password. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password.normalize('NFKC'), salt, KEY_LEN, SCRYPT);
  return `scrypt$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Key derivations run so far: every password check costs one, whether or not its account exists. */
export const passwordWork = { derivations: 0 };

/** Derives with the same cost as a real hash's check, for a check against no hash at all. */
const NO_HASH = { salt: randomBytes(16), key: randomBytes(KEY_LEN) };

/**
 * True when the password matches a hash from `hashPassword`, compared in constant time. Against a
 * missing or malformed hash (`''` for an account that does not exist) it does the same work and
 * answers false, so how long a login takes does not tell whether the account exists.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, saltB64, keyB64] = stored.split('$');
  const real = scheme === 'scrypt' && !!saltB64 && !!keyB64;
  const salt = real ? Buffer.from(saltB64, 'base64') : NO_HASH.salt;
  const expected = real ? Buffer.from(keyB64, 'base64') : NO_HASH.key;
  passwordWork.derivations++;
  const key = await scryptAsync(password.normalize('NFKC'), salt, expected.length, SCRYPT);
  return timingSafeEqual(key, expected) && real;
}

/** A random URL-safe token of `bytes` bytes. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** SHA-256, hex: how session tokens are stored. */
export function sha256(input: string | Buffer): string {
  return hash('sha256', input, 'hex');
}

/** HMAC-SHA256, hex, with the instance secret: how verification codes are stored. */
export function hmac(secret: string, input: string): string {
  return createHmac('sha256', secret).update(input).digest('hex');
}

/** A numeric code of `length` digits. */
export function numericCode(length: number): string {
  return Array.from({ length }, () => randomInt(10)).join('');
}
