import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Secrets at rest (a TOTP seed, a provider's client secret, a directory's bind password): sealed
 * with AES-256-GCM under a key derived from the instance secret, which is made at the first start
 * and kept in the database like the VAPID keys (`ConfigService.secret`). Each value is bound to
 * what it belongs to (`context`, e.g. `totp:42`), so that a sealed value copied to another row does
 * not open there.
 */
export class Sealer {
  private key: Buffer | undefined;

  constructor(private readonly secret: () => string) {}

  private keyOf(): Buffer {
    if (!this.key) {
      const secret = this.secret();
      if (!secret) throw new Error('the instance secret is not loaded yet');
      this.key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'sparrow/sealed/v1', 32));
    }
    return this.key;
  }

  /** `v1.<base64url of iv | tag | ciphertext>`. */
  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keyOf(), iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** The plain text of `seal(plain, context)`; throws when the value or its context does not match. */
  open(sealed: string, context: string): string {
    const [version, data] = sealed.split('.');
    if (version !== VERSION || !data) throw new Error('not a sealed value');
    const raw = Buffer.from(data, 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.keyOf(), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
