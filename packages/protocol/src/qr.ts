/** What a QR code names (api.md §6): a person or a group. */
export type QrKind = 'user' | 'group';

/** The in-app page a scanned code opens (spec §2): 用户分享 for a person, 群分享 for a group. */
export const QR_LANDING = {
  user: '/pages/index/myqrcode',
  group: '/pages/index/qqrcode',
} as const satisfies Record<QrKind, string>;

/** The URL a QR code holds (api.md §6): `<base>/#/pages/index/myqrcode?token=…`. */
export function qrLink(base: string, kind: QrKind, token: string): string {
  return `${base.replace(/\/+$/, '')}/#${QR_LANDING[kind]}?token=${encodeURIComponent(token)}`;
}

/** A Sparrow QR link taken apart. */
export interface QrLink {
  /** The address of the server that made it: origin and path before the `#`, no trailing slash. */
  base: string;
  kind: QrKind;
  token: string;
}

/** The server, kind and token of a text that is a Sparrow QR link (of any server), else null. */
export function parseQrLink(text: string): QrLink | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const hash = url.hash.replace(/^#/, '');
  const q = hash.indexOf('?');
  const page = (q < 0 ? hash : hash.slice(0, q)).toLowerCase();
  const kind = (Object.keys(QR_LANDING) as QrKind[]).find((k) => QR_LANDING[k].toLowerCase() === page);
  const token = q < 0 ? null : new URLSearchParams(hash.slice(q + 1)).get('token');
  if (!kind || !token) return null;
  return { base: serverBase(url), kind, token };
}

/** The origin and path of a page address, without `index.html` or a trailing slash. */
export function serverBase(url: { origin: string; pathname: string }): string {
  return `${url.origin}${url.pathname.replace(/\/index\.html$/i, '').replace(/\/+$/, '')}`;
}

/** A person as their scanned code shows them (userInfoqq). */
export interface UserPreview {
  user_id: number;
  /** My remark for them when we are friends, else their name. */
  displayName: string;
  avatar: string;
  motto: string;
  is_friend: 0 | 1;
}
