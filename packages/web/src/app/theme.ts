import { BASE_WIDTH, MAX_SCALE_WIDTH, TAB_BAR } from '@sparrow/protocol';
import { DARK_QUERY, resolveScheme, showScheme } from '../lib/color-theme';
import { settingsStore } from '../stores/settings';

/**
 * Green for text and for backgrounds behind white text. The product's #1AAD19 reaches only 2.98:1
 * against white, under the 4.5:1 WCAG AA asks of text, so it stays for icons, switches and
 * marks while words use this darker shade of the same hue (5.37:1 on white).
 */
export const GREEN_TEXT = '#107C10';

/**
 * Puts the sizes of docs/product.md §9 where the stylesheet reads them; its colours, in both themes,
 * are styles.css's custom properties (a test holds them to §9).
 */
export function applyTheme(root: HTMLElement): void {
  const set = (name: string, value: string) => root.style.setProperty(name, value);
  set('--sp-tab-height', `${TAB_BAR.height}px`);
  set('--sp-tab-icon', `${TAB_BAR.iconWidth}px`);
  set('--sp-tab-font', `${TAB_BAR.fontSize}px`);
  set('--sp-base-width', `${BASE_WIDTH}px`);
  set('--sp-max-width', `${MAX_SCALE_WIDTH}px`);
}

/**
 * Keeps the shown colour scheme to the 深色模式 setting and, while it follows the system, to the
 * system's scheme as it changes (public/theme-boot.js showed the first one before the first paint).
 */
export function followColorScheme(doc: Document = document): void {
  const system = typeof matchMedia === 'function' ? matchMedia(DARK_QUERY) : null;
  const show = () => showScheme(doc, resolveScheme(settingsStore.getState().theme, system?.matches ?? false));
  show();
  system?.addEventListener('change', show);
  settingsStore.subscribe((state, before) => {
    if (state.theme !== before.theme) show();
  });
}
