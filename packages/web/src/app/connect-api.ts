import { configureApi } from '../api';
import { i18next } from '../i18n';
import { installId, storage } from '../lib/storage';
import { sessionStore } from '../stores/session';
import { settingsStore } from '../stores/settings';
import { sessionEnded } from './account';
import { feedback } from './feedback';

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
