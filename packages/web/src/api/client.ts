import { CodeType } from '@sparrow/protocol';
import { feedback } from '../app/feedback';
import { navigateTo } from '../app/navigation';
import { paths } from '../app/paths';
import { i18next } from '../i18n';
import { installId, storage } from '../lib/storage';
import { session, sessionStore } from '../stores/session';
import { settingsStore } from '../stores/settings';
import { createHttpClient, type RequestOptions } from './http';
import { xhrUpload } from './xhr-upload';

/** The app's HTTP client wired to the stores, the router and the on-screen feedback. */
export const client = createHttpClient({
  fetch: (req) => fetch(req),
  upload: (req) => xhrUpload(req),
  ui: feedback,
  t: (key) => i18next.t(key),
  getToken: () => sessionStore.getState().token,
  getClientId: () => storage.get('client_id'),
  getCid: installId,
  getLanguage: () => settingsStore.getState().language,
  isOnline: () => navigator.onLine,
  onSessionInvalid: () => {
    session.clear();
    navigateTo(paths.login, { replace: true });
  },
});

/** Sends a verification code for a purpose of protocol's CodeType (api.md §3 sendCode). */
export function sendCode(account: string, purpose: keyof typeof CodeType, opts?: RequestOptions): Promise<null> {
  return client.api.sendCode({ account, type: CodeType[purpose] }, opts);
}
