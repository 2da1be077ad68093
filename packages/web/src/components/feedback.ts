import { TOAST_MS } from '@sparrow/protocol';
import type { FeedbackUi } from '../api/http';
import type * as AntdModule from './antd';
import { i18next } from '../i18n';

type Antd = typeof AntdModule;
let antd: Promise<Antd> | null = null;

/** antd-mobile (and its animation library) arrive with the first toast or dialog, not before. */
function ui(): Promise<Antd> {
  antd ??= import('./antd').catch((error: unknown) => {
    antd = null;
    throw error;
  });
  return antd;
}

/** Runs fn once antd-mobile is in; calls keep their order because they chain on one promise. */
function withUi(fn: (m: Antd) => void): void {
  ui().then(fn, () => {
    // Without the UI chunk (offline on first use) there is no way to show feedback.
  });
}

let loadingCount = 0;
let loadingShown = false;

/**
 * Toasts, the loading indicator and alerts (docs/product.md §4 "Generic", §9 toast 1500 ms). antd-mobile
 * shows one toast at a time, so a toast replaces the loading indicator and hiding the indicator
 * must not close a toast shown after it.
 */
export const feedback: FeedbackUi & {
  /** Asks before an action; `danger`: one that deletes or ends something, its button in red. */
  confirm(options: {
    title?: string;
    content: string;
    confirmText: string;
    cancelText: string;
    danger?: boolean;
  }): Promise<boolean>;
} = {
  toast(text, durationMs = TOAST_MS) {
    loadingShown = false;
    // A toast only says something: taps go through it to the controls under it, here or on the
    // page the app moves to while it shows ("登录成功" over the home page's list).
    withUi(({ Toast }) => Toast.show({ content: text, duration: durationMs, maskClassName: 'toast-passthrough' }));
  },
  showLoading() {
    loadingCount += 1;
    if (loadingShown) return;
    loadingShown = true;
    withUi(({ Toast }) => {
      if (!loadingShown) return;
      Toast.show({
        icon: 'loading',
        content: i18next.t('common.loading'),
        duration: 0,
        maskClickable: false,
      });
    });
  },
  hideLoading() {
    loadingCount = Math.max(0, loadingCount - 1);
    if (loadingCount === 0 && loadingShown) {
      loadingShown = false;
      withUi(({ Toast }) => Toast.clear());
    }
  },
  async alert({ title, content, confirmText }) {
    const { Dialog } = await ui();
    await Dialog.alert({ title, content, confirmText, 'aria-label': title });
  },
  async confirm({ title, content, confirmText, cancelText, danger }) {
    const { Dialog } = await ui();
    const label = title ?? content;
    if (!danger) return Dialog.confirm({ title, content, confirmText, cancelText, 'aria-label': label });
    return new Promise<boolean>((resolve) => {
      Dialog.show({
        title,
        content,
        'aria-label': label,
        closeOnAction: true,
        afterClose: () => resolve(false),
        actions: [
          [
            { key: 'cancel', text: cancelText, onClick: () => resolve(false) },
            { key: 'confirm', text: confirmText, danger: true, bold: true, onClick: () => resolve(true) },
          ],
        ],
      });
    });
  },
};

/** Fetches the UI chunk ahead of its first use. */
export function preloadFeedback(): void {
  ui().catch(() => {
    // Retried on first use.
  });
}
