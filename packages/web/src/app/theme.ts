import { BASE_WIDTH, MAX_SCALE_WIDTH, TAB_BAR } from '@sparrow/protocol';

/**
 * Green for text and for backgrounds behind white text. The product's #1AAD19 reaches only 2.98:1
 * against white, under the 4.5:1 WCAG AA asks of text, so it stays for icons, switches and
 * marks while words use this darker shade of the same hue (5.37:1 on white).
 */
export const GREEN_TEXT = '#107C10';

/** Puts the docs/product.md §9 constants where the stylesheet reads them. */
export function applyTheme(root: HTMLElement): void {
  const set = (name: string, value: string) => root.style.setProperty(name, value);
  set('--sp-green', TAB_BAR.selectedColor);
  set('--sp-green-text', GREEN_TEXT);
  set('--sp-page-bg', TAB_BAR.pageBackground);
  set('--sp-tab-height', `${TAB_BAR.height}px`);
  set('--sp-tab-icon', `${TAB_BAR.iconWidth}px`);
  set('--sp-tab-font', `${TAB_BAR.fontSize}px`);
  set('--sp-tab-color', TAB_BAR.color);
  set('--sp-base-width', `${BASE_WIDTH}px`);
  set('--sp-max-width', `${MAX_SCALE_WIDTH}px`);
}
