/** The URL to show in the in-app browser, or null unless it is an absolute http(s) URL. */
export function safeWebUrl(src: string | null): URL | null {
  if (!src) return null;
  try {
    const url = new URL(src);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The iframe sandbox for a page. A page of our own origin must not get allow-same-origin: with
 * scripts too it could reach this app's storage, the session token included.
 */
export function frameSandbox(url: URL, ownOrigin: string): string {
  const base = 'allow-scripts allow-forms allow-popups';
  return url.origin === ownOrigin ? base : `${base} allow-same-origin`;
}
