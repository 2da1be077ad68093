import { configureApi } from '../api';
import { feedback } from '../components/feedback';
import { i18next } from '../i18n';
import { installId, storage } from '../lib/storage';
import { sessionEnded } from '../session/account';
import { sessionStore } from '../stores/session';
import { settingsStore } from '../stores/settings';

/** Wires the request layer to the session, the settings, the router and the on-screen feedback. */
export function connectApi(): void {
  configureApi({
    ui: feedback,
    t: (key) => i18next.t(key),
    getToken: () => sessionStore.getState().token,
    getClientId: () => storage.get('client_id'),
    getCid: installId,
    getLanguage: () => settingsStore.getState().language,
    onSessionInvalid: sessionEnded,
  });
}
