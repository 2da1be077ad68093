import { paths, publicPaths, routePathOf, withQuery } from './paths';

/** The app page now shown, path and query, from the hash (`#/pages/index/qqrcode?token=…`). */
export function currentPath(): string {
  return window.location.hash.replace(/^#/, '') || paths.entry;
}

/**
 * A page to come back to after signing in: a path of the route table that needs a session, other
 * than home (where signing in leads anyway); null for anything else, a foreign URL above all.
 */
export function returnPath(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//')) return null;
  const path = routePathOf(raw.split(/[?#]/)[0]!);
  if (path === undefined || publicPaths.includes(path) || path === paths.home) return null;
  return raw;
}

/** The login page, remembering `from` to come back to when it is worth coming back to. */
export function loginPath(from?: string | null): string {
  const back = returnPath(from);
  return back ? withQuery(paths.login, { redirect: back }) : paths.login;
}
