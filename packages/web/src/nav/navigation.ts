import { useCallback } from 'react';
import { useLocation, useNavigate, type NavigateFunction, type NavigateOptions } from 'react-router';
import { sessionStore } from '../stores/session';
import { BACK_TO_HOME, paths } from './paths';

let navigator: NavigateFunction | null = null;

/** Lets code outside React (request layer, socket) navigate through the router. */
export function setNavigator(fn: NavigateFunction | null): void {
  navigator = fn;
}

export function navigateTo(path: string, options?: NavigateOptions): void {
  if (navigator) void navigator(path, options);
  else window.location.hash = `#${path}`;
}

/** The root a back with nothing behind it leads to: home when signed in, the entry otherwise. */
export function rootPath(signedIn: boolean): string {
  return signedIn ? paths.home : paths.entry;
}

/**
 * Where "back" goes (docs/product.md §2): from the chat page to home; elsewhere one page back; with only
 * one page on the stack, to the root. `historyIndex` is the router's position in the history.
 */
export function backTarget(pathname: string, historyIndex: number, signedIn: boolean): string | -1 {
  if (BACK_TO_HOME.includes(pathname)) return paths.home;
  if (historyIndex > 0) return -1;
  return rootPath(signedIn);
}

/** The router's position in the browser history (react-router keeps it as `idx` in history.state). */
export function historyIndex(): number {
  const state: unknown = window.history.state;
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' ? idx : 0;
}

export function useBack(): () => void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback(() => {
    const target = backTarget(pathname, historyIndex(), sessionStore.getState().token !== null);
    if (target === -1) void navigate(-1);
    else void navigate(target, { replace: true });
  }, [navigate, pathname]);
}

/** Back from a sub-view of a page (`?edit=…`): one page back, or to the page itself. */
export function useBackTo(fallback: string): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    if (historyIndex() > 0) void navigate(-1);
    else void navigate(fallback, { replace: true });
  }, [navigate, fallback]);
}
