declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  /** RFC 8188 decryption; for Web Push (RFC 8291) the receiver's ECDH key and auth secret. */
  export function decrypt(
    buffer: Buffer,
    params: { version: 'aes128gcm' | 'aesgcm'; privateKey?: ECDH; authSecret?: Buffer | string; dh?: string },
  ): Buffer;
}
