import * as z from 'zod';
import type { LoginResult } from '../entities';

/**
 * QR login (扫码登录, docs/protocol.md §6): a signed-out page asks for a code (`qrLoginCreate`) and
 * shows it; a phone already signed in scans it (`qrLoginScan`) and confirms (`qrLoginConfirm`) or
 * cancels (`qrLoginCancel`); the page learns each step by asking `qrLoginState` with the secret it
 * alone holds, and on `confirmed` is signed in with a session of its own, which the phone lists
 * (`webSessions`) and may end (`webSessionEnd`).
 */

/** A login code as the QR holds it: 22 characters of base64url, 132 random bits. */
const loginCode = z.string().regex(/^[A-Za-z0-9_-]{22}$/);

/** `/common/Pub/qrLoginState`: where a code stands, asked by the page that showed it. */
export const QrLoginStateBody = z.object({
  /** The code `qrLoginCreate` made. */
  code: loginCode,
  /** The secret `qrLoginCreate` answered with it: never in the QR, so that seeing the code is not enough. */
  secret: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});

/** `/enterprise/im/qrLoginScan`, `qrLoginConfirm`, `qrLoginCancel`: a login code the caller scanned. */
export const QrLoginCodeBody = z.object({
  /** The code of the scanned `/scan/l/<code>` link. */
  code: loginCode,
});

/** `/enterprise/im/webSessionEnd`: one of the caller's sessions made by QR login. */
export const WebSessionEndBody = z.object({
  /** The session's id, as `webSessions` lists it. */
  session_id: z.number().int().positive(),
});

/** A fresh login code (`qrLoginCreate`). */
export interface QrLoginCode {
  /** What the QR holds: `<base>/scan/l/<code>`. */
  qrUrl: string;
  code: string;
  /** Sent with every `qrLoginState`; never shown. */
  secret: string;
  /** When the code stops working unless scanned, ms. */
  expires: number;
}

/**
 * Where a code stands: `waiting` for a scan, `scanned` (the phone shows its confirm page),
 * `confirmed` (the session is made: `login` holds it), `cancelled` on the phone, `expired`.
 */
export type QrLoginStatus = 'waiting' | 'scanned' | 'confirmed' | 'cancelled' | 'expired';

/** `qrLoginState`'s answer. */
export interface QrLoginState {
  state: QrLoginStatus;
  /** Once scanned: who scanned it, for the page to show whose phone should confirm. */
  scanner?: { realname: string; avatar: string };
  /** Once confirmed: the page's own session, as `login` answers one. */
  login?: LoginResult;
}

/** A browser and system read from a user agent ("Chrome", "Linux"); '' for one not recognised. */
export interface DeviceName {
  browser: string;
  os: string;
}

/** `qrLoginScan`'s answer: what the phone's confirm page names. */
export interface QrLoginScan {
  /** The device that showed the code. */
  device: DeviceName;
  /** The address the code was asked from (as the server saw it), shown beside the device. */
  ip: string;
  /** When the scanned code stops working unless confirmed, ms. */
  expires: number;
}

/** A session made by QR login, as `webSessions` lists it. */
export interface WebSession {
  session_id: number;
  device: DeviceName;
  /** When it was made, ms. */
  create_time: number;
  /** When it was last used (recorded every few minutes), ms. */
  last_seen: number;
}

const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  // The mobile app (the uni-app client, packaged): its web view names itself so.
  [/Html5Plus|uni-app/, 'Sparrow'],
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/MicroMessenger\//, 'WeChat'],
  [/Chrom(e|ium)\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/Windows/, 'Windows'],
  [/iPad/, 'iPad'],
  [/iPhone|iPod/, 'iPhone'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/HarmonyOS/, 'HarmonyOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Linux|X11/, 'Linux'],
];

/**
 * The browser (or 'Sparrow', the app) and system a user agent names ("Chrome" on "Linux"), as QR
 * login and 登录设备 show a device.
 */
export function deviceName(userAgent: string): DeviceName {
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1] ?? '';
  const os = SYSTEMS.find(([re]) => re.test(userAgent))?.[1] ?? '';
  return { browser, os };
}
