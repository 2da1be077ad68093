import { parseWithoutEval } from '@sparrow/protocol';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { connectApi } from './app/connect-api';
import { checkForUpdate, loadSystemInfo, verifySession } from './app/system';
import { applyTheme, followColorScheme } from './app/theme';
import './app/styles.css';
import { initI18n } from './i18n';
import { installId } from './lib/storage';
import { followSession } from './session/connection';
import { settings, settingsStore } from './stores/settings';

parseWithoutEval();
connectApi();

async function start(): Promise<void> {
  applyTheme(document.documentElement);
  followColorScheme();
  installId();
  settings.persist();
  await initI18n(settingsStore.getState().language);
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  followSession();
  // The service worker's code and its install wait until the first screen has painted.
  requestAnimationFrame(() => setTimeout(() => void import('./app/pwa').then((m) => m.registerServiceWorker()), 0));
  await Promise.all([loadSystemInfo(), verifySession()]);
  await checkForUpdate(false);
}

start().catch((error: unknown) => {
  console.error('Sparrow could not start', error);
});
