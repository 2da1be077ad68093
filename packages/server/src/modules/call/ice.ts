import { createHmac } from 'node:crypto';
import type { IceConfig, IceServer } from '@sparrow/protocol';
import type { ServerConfig } from '../../config';

/**
 * TURN credentials in the REST scheme coturn's `use-auth-secret` checks: the username is
 * `<expiry in s>:<user id>`, the password the base64 HMAC-SHA1 of the username under the shared secret.
 */
export function turnCredentials(secret: string, userId: number, nowMs: number, ttlS: number) {
  const username = `${Math.floor(nowMs / 1000) + ttlS}:${userId}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64') };
}

/** STUN from the operator's chatInfo.stun, and TURN with fresh credentials when the process is given one. */
export function iceConfig(
  env: Pick<ServerConfig, 'turnUrls' | 'turnSecret' | 'turnTtlS' | 'iceTransportPolicy'>,
  stun: IceServer[],
  userId: number,
  nowMs: number,
): IceConfig {
  const iceServers = [...stun];
  if (env.turnUrls.length && env.turnSecret)
    iceServers.push({ urls: env.turnUrls, ...turnCredentials(env.turnSecret, userId, nowMs, env.turnTtlS) });
  return { iceServers, ttl: env.turnTtlS, ...(env.iceTransportPolicy === 'relay' && { iceTransportPolicy: 'relay' }) };
}
