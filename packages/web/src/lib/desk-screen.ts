import { useSyncExternalStore } from 'react';
import { callPaths, managePaths, mediaPaths, paths, routePathOf } from '../nav/paths';

/*
 * Whether the wide layout is drawn: kept apart from its rules (desk-panes.ts) so that the first
 * screen carries only this much of it.
 */

/** The narrowest window, px, that gets the panes of the wide layout; below it the phone layout. */
export const DESK_MIN_WIDTH = 1024;

/** Pages that cover the whole window at a desk too: signing in, the console, a call, the video player. */
const WHOLE_WINDOW: readonly string[] = [
  paths.entry,
  paths.entryAlias,
  paths.autoLogin,
  paths.login,
  paths.register,
  managePaths.console,
  callPaths.call,
  mediaPaths.video,
];

/** Whether a page covers the whole window rather than sitting in the panes (an unknown path too). */
export function wholeWindow(pathname: string): boolean {
  const path = routePathOf(pathname);
  return path === undefined || WHOLE_WINDOW.includes(path);
}

const query = `(min-width: ${DESK_MIN_WIDTH}px)`;

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia(query);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

/** Whether the window is wide enough for the panes; follows resizing. */
export function useDeskScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}
