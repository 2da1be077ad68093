import { parseQrLink, qrLanding, serverBase, type QrLinkKind } from '@sparrow/protocol';
import { safeWebUrl } from './url';

/** Where a scanned text leads (docs/protocol.md §6). */
export type ScanTarget =
  /** A Sparrow code of this server: its landing page in the app. */
  | { kind: 'page'; path: string; qr: QrLinkKind; token: string }
  /** Another http(s) address: the in-app browser. */
  | { kind: 'web'; url: string }
  /** Anything else: shown as text to copy. */
  | { kind: 'text'; text: string };

/**
 * What to do with a decoded code. `ownBases` are the addresses of this server (the page's own,
 * and the one its codes name when PUBLIC_URL differs): a Sparrow code of another server is only
 * a web address here, since its token means nothing to ours.
 */
export function scanTarget(text: string, ownBases: readonly string[]): ScanTarget {
  const link = parseQrLink(text);
  const own = ownBases.map((b) => b.toLowerCase());
  if (link && own.includes(link.base.toLowerCase())) {
    const path = qrLanding(link.kind, link.token);
    return { kind: 'page', path, qr: link.kind, token: link.token };
  }
  const url = safeWebUrl(text.trim());
  if (url) return { kind: 'web', url: url.href };
  return { kind: 'text', text };
}

/** This server's addresses as the scan page knows them: where it runs, and where my code points. */
export function ownBases(location: { origin: string; pathname: string }, myQrUrl: string | undefined): string[] {
  const bases = [serverBase(location)];
  const mine = myQrUrl ? parseQrLink(myQrUrl) : null;
  if (mine) bases.push(mine.base);
  return bases;
}

/**
 * The navigation state 扫一扫 hands a scanned code's landing page. The login confirm page acts
 * only on a code that arrives with it: a link in a chat, a typed address or a reload carry none.
 */
export const FROM_SCANNER = { fromScanner: true } as const;

/** True when a page's navigation state says 扫一扫 opened it. */
export function fromScanner(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { fromScanner?: unknown }).fromScanner === true;
}
