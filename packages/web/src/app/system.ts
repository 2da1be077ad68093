import { APP_VERSION } from '@sparrow/protocol';
import { api } from '../api';
import { feedback } from '../components/feedback';
import { i18next } from '../i18n';
import { config } from '../stores/config';
import { session, sessionStore } from '../stores/session';

/** Refreshes the system configuration (sysInfo, chatInfo…) kept in the config store. */
export async function loadSystemInfo(): Promise<void> {
  try {
    config.set(await api.getSystemInfo({}, { silent: true }));
  } catch {
    // Offline: keep the copy stored from the last visit.
  }
}

/**
 * Asks the server whether a newer build exists (docs/protocol.md §3 checkVersion) and offers a reload.
 * `interactive` is the settings button: it also says when the version is current, and shows
 * network errors; at start the check is silent unless there is something to update.
 */
export async function checkForUpdate(interactive: boolean): Promise<void> {
  const t = i18next.t;
  let info;
  try {
    info = await api.checkVersion(
      { release: APP_VERSION },
      interactive ? { loading: true, quiet: true } : { silent: true },
    );
  } catch {
    return;
  }
  if (!info.downloadUrl) {
    if (interactive) feedback.toast(t('setting.latest'));
    return;
  }
  if (info.updateType === 'silent' && !interactive) return;
  const content = [t('setting.newVersion', { version: info.versionName }), info.versionInfo].filter(Boolean).join('\n');
  if (info.updateType === 'forcibly') {
    await feedback.alert({ title: t('errors.tip'), content, confirmText: t('setting.reloadNow') }).catch(() => {});
    window.location.reload();
    return;
  }
  const reload = await feedback
    .confirm({ title: t('errors.tip'), content, confirmText: t('setting.reloadNow'), cancelText: t('setting.later') })
    .catch(() => false);
  if (reload) window.location.reload();
}

/**
 * Checks a stored session once per start, whatever page was opened: a revoked or expired token
 * then leads to the login page by the request layer's code -1 / HTTP 401 handling.
 */
export async function verifySession(): Promise<void> {
  if (!sessionStore.getState().token || !navigator.onLine) return;
  try {
    session.setUser(await api.checkuser({}, { quiet: true }));
  } catch {
    // The request layer has shown what went wrong and, for a dead session, opens the login page.
  }
}
