import { configureApi } from '../api';
import { i18next } from '../i18n';
import { installId, storage } from '../lib/storage';
import { session, sessionStore } from '../stores/session';
import { settingsStore } from '../stores/settings';
import { feedback } from './feedback';
import { navigateTo } from './navigation';
import { paths } from './paths';

/** Wires the request layer to the session, the settings, the router and the on-screen feedback. */
export function connectApi(): void {
  configureApi({
    ui: feedback,
    t: (key) => i18next.t(key),
    getToken: () => sessionStore.getState().token,
    getClientId: () => storage.get('client_id'),
    getCid: installId,
    getLanguage: () => settingsStore.getState().language,
    onSessionInvalid: () => {
      session.clear();
      navigateTo(paths.login, { replace: true });
    },
  });
}
