/** The colour themes (深色模式): follow the system's scheme, or always light, or always dark. */
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
export type ColorScheme = 'light' | 'dark';

/** The browser's bar above the page in each scheme: the navigation bar's colour (styles.css --sp-nav-bg). */
export const THEME_BAR_COLOR: Record<ColorScheme, string> = { light: '#EDEDED', dark: '#111111' };

export const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The scheme a choice shows, given whether the system asks for dark. */
export function resolveScheme(choice: ThemeChoice, systemDark: boolean): ColorScheme {
  if (choice === 'system') return systemDark ? 'dark' : 'light';
  return choice;
}

/**
 * Shows a scheme: `data-theme` selects styles.css's palette, `data-prefers-color-scheme` antd-mobile's,
 * and the theme-color meta tints the browser's bar. public/theme-boot.js does the same before the first paint.
 */
export function showScheme(doc: Document, scheme: ColorScheme): void {
  const root = doc.documentElement;
  root.setAttribute('data-theme', scheme);
  root.setAttribute('data-prefers-color-scheme', scheme);
  doc.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_BAR_COLOR[scheme]);
}
