import { createHmac, timingSafeEqual } from 'node:crypto';
import { QR_VALID_MS, type QrKind } from '@sparrow/protocol';
import { AppError } from '../../errors';

const PREFIX = { user: 'u', group: 'g' } as const satisfies Record<QrKind, string>;
/** Characters of the base64url HMAC kept in a token: 132 bits, short enough for a small code. */
const SIGNATURE_CHARS = 22;
const TOKEN = /^([ug])([1-9][0-9]{0,15})(?:v([1-9][0-9]{0,8}))?\.([0-9]{1,16})\.([A-Za-z0-9_-]+)$/;

/** What a genuine, unexpired token names. */
export interface QrSubject {
  id: number;
  /** The generation of codes it was made in (0 for a person, or a group whose codes were never revoked). */
  generation: number;
  /** When the code stops working, ms. */
  expires: number;
}

/** A refusal of a token, naming the field. */
const refuse = (name: 'QrInvalid' | 'QrExpired' | 'QrNotUser' | 'QrNotGroup') =>
  new AppError(name, {}, { fields: ['token'] });

/**
 * Signed, expiring QR tokens (docs/protocol.md §6): `<u|g><id>[v<generation>].<expires, ms>.<signature>`, the
 * signature an HMAC under a key derived from the instance secret, which every node reads from the
 * database. A token names its kind, so a person's code never opens a group and the other way round.
 * The generation lets a group revoke every code handed out so far; generation 0 is written without
 * it, so codes made before generations existed keep working until their group's first revocation.
 */
export class QrTokens {
  private key: Buffer | undefined;
  private keyFrom = '';

  constructor(
    private readonly secret: () => string,
    private readonly now: () => number,
  ) {}

  /** A fresh token for a person or a group, valid QR_VALID_MS (docs/product.md §9: 7 days). */
  sign(kind: QrKind, id: number, generation = 0): { token: string; expires: number } {
    const expires = this.now() + QR_VALID_MS;
    const body = `${PREFIX[kind]}${id}${generation > 0 ? `v${generation}` : ''}.${expires}`;
    return { token: `${body}.${this.signature(body)}`, expires };
  }

  /**
   * The id and generation a genuine, unexpired token of `kind` names. Refused, in this order: not a
   * token of ours or a forged signature (QrInvalid), a genuine token of the other kind, a genuine
   * expired one.
   */
  verify(token: string, kind: QrKind): QrSubject {
    const m = TOKEN.exec(token);
    if (!m) throw refuse('QrInvalid');
    const [, prefix, idText, generationText, expiresText, signature] = m as unknown as [
      string,
      string,
      string,
      string | undefined,
      string,
      string,
    ];
    const generation = generationText === undefined ? '' : `v${generationText}`;
    const expected = Buffer.from(this.signature(`${prefix}${idText}${generation}.${expiresText}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse('QrInvalid');
    if (prefix !== PREFIX[kind]) throw refuse(kind === 'user' ? 'QrNotUser' : 'QrNotGroup');
    if (Number(expiresText) < this.now()) throw refuse('QrExpired');
    return { id: Number(idText), generation: Number(generationText ?? 0), expires: Number(expiresText) };
  }

  private signature(body: string): string {
    const secret = this.secret();
    // A key of its own, so that no other HMAC of the instance secret (verification codes) can pass for a token.
    if (!this.key || this.keyFrom !== secret) {
      this.key = createHmac('sha256', secret).update('sparrow qr tokens').digest();
      this.keyFrom = secret;
    }
    return createHmac('sha256', this.key).update(body).digest('base64url').slice(0, SIGNATURE_CHARS);
  }
}
