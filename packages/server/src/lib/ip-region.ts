import { BlockList, isIP } from 'node:net';
import type IP2Region from 'ip2region';
import { onFirstUse } from './lazy';

/** Where an address is, as 登录设备 and the console show it. */
export interface Place {
  /** The region's words ("广东省 深圳市", "美国"); '' when unknown or local. */
  place: string;
  /** A loopback, private or link-local address: 局域网. */
  lan: boolean;
}

export const NO_PLACE: Place = { place: '', lan: false };

/** Loopback, private, shared (carrier-grade NAT) and link-local ranges. */
const LOCAL = new BlockList();
for (const [net, bits] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
] as const)
  LOCAL.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  LOCAL.addSubnet(net, bits, 'ipv6');

/**
 * The bundled offline database (ip2region, about 11 MB read into memory), loaded on the first look-up:
 * a server whose `sysInfo.ipregion` is off never loads it.
 */
const loadDatabase = onFirstUse<{ default: typeof IP2Region }>('ip2region');
let database: IP2Region | undefined;

/** An IPv4 address written as IPv6 (`::ffff:10.0.0.1`), as a dual-stack socket reports one, in its own form. */
function plain(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1]! : ip;
}

/** Whether an address is loopback, private or link-local. */
export function isLocalAddress(ip: string): boolean {
  const addr = plain(ip);
  const v = isIP(addr);
  return v !== 0 && LOCAL.check(addr, v === 4 ? 'ipv4' : 'ipv6');
}

/** The approximate place of an address: province and city in China, else the country (and region). */
export function placeOf(ip: string): Place {
  const addr = plain(ip);
  if (isIP(addr) === 0) return NO_PLACE;
  if (isLocalAddress(addr)) return { place: '', lan: true };
  database ??= new (loadDatabase().default)();
  const found = database.search(addr);
  if (!found) return NO_PLACE;
  const [wide, narrow] =
    found.country === '中国' && found.province ? [found.province, found.city] : [found.country, found.province];
  // "北京 北京市" says one place twice.
  const words = [wide, narrow.startsWith(wide) ? '' : narrow].filter((p) => p && p !== '内网IP');
  return { place: words.join(' '), lan: false };
}
