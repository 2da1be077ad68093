import { deviceName } from '@sparrow/protocol';
import { sha256 } from '../../lib/crypto';

/**
 * What makes two sign-ins the same device (登录设备, docs/product.md): the same browser and system
 * as protocol's `deviceName` reads the user agent, and the same `cid` (the id Sparrow's client makes
 * once per install; '' for a client that sends none). Stored as its SHA-256 (`user_devices`).
 */
export function deviceKey(userAgent: string, cid: string): string {
  const { browser, os } = deviceName(userAgent);
  return sha256(`${browser}|${os}|${cid.slice(0, 64)}`);
}
