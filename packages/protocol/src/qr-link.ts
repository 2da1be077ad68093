import { QR_LANDING, type QrLinkKind } from './qr';

/** The path letter of a kind in a code's URL, as the original server wrote its scan paths. */
export const QR_PATH = { user: 'u', group: 'g', login: 'l' } as const satisfies Record<QrLinkKind, string>;

/**
 * The URL a QR code holds (docs/protocol.md §6): `<base>/scan/u/<token>` (a group's: `/scan/g/`), the
 * original server's scan path, which a Raingad client resolves by posting it and a browser opens
 * as Sparrow's page for the code (the server sends it on to `QR_LANDING`). A login code's is
 * `/scan/l/<code>`, which only Sparrow's client resolves.
 */
export function qrLink(base: string, kind: QrLinkKind, token: string): string {
  return `${base.replace(/\/+$/, '')}/scan/${QR_PATH[kind]}/${encodeURIComponent(token)}`;
}

/** The in-app page of a code, relative to the app's own address: `/#/pages/index/myqrcode?token=…`. */
export function qrLanding(kind: QrLinkKind, token: string): string {
  return `${QR_LANDING[kind]}?${new URLSearchParams({ token }).toString()}`;
}

/** A Sparrow QR link taken apart. */
export interface QrLink {
  /** The address of the server that made it: origin and path before the `#`, no trailing slash. */
  base: string;
  kind: QrLinkKind;
  token: string;
}

const SCAN_PATH = /^(.*)\/scan\/([ugl])\/([^/?#]+)\/?$/;

/**
 * The server, kind and token of a text that is a Sparrow QR link (of any server), else null: the
 * scan path `qrLink` makes, or the page address codes held before it (`<base>/#/pages/…?token=`),
 * so that codes printed then still work.
 */
export function parseQrLink(text: string): QrLink | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const scan = SCAN_PATH.exec(url.pathname);
  if (scan) {
    const kind = (Object.keys(QR_PATH) as QrLinkKind[]).find((k) => QR_PATH[k] === scan[2])!;
    let token: string;
    try {
      token = decodeURIComponent(scan[3]!);
    } catch {
      return null;
    }
    return { base: serverBase({ origin: url.origin, pathname: scan[1]! }), kind, token };
  }
  const hash = url.hash.replace(/^#/, '');
  const q = hash.indexOf('?');
  const page = (q < 0 ? hash : hash.slice(0, q)).toLowerCase();
  const kind = (Object.keys(QR_LANDING) as QrLinkKind[]).find((k) => QR_LANDING[k].toLowerCase() === page);
  const token = q < 0 ? null : new URLSearchParams(hash.slice(q + 1)).get('token');
  if (!kind || !token) return null;
  return { base: serverBase(url), kind, token };
}

/** The origin and path of a page address, without `index.html` or a trailing slash. */
export function serverBase(url: { origin: string; pathname: string }): string {
  return `${url.origin}${url.pathname.replace(/\/index\.html$/i, '').replace(/\/+$/, '')}`;
}
