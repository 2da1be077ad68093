import { DEFAULT_APP_SETTING, DEFAULT_LOCALE, type AppSetting, type Locale } from '@sparrow/protocol';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { storage } from '../lib/storage';

export interface SettingsState {
  language: Locale;
  appSetting: AppSetting;
}

/** Device settings (spec §3 App setting, language), mirrored to localStorage. */
export const settingsStore = createStore<SettingsState>()(() => ({
  language: storage.get('language') ?? DEFAULT_LOCALE,
  appSetting: storage.get('appSetting') ?? { ...DEFAULT_APP_SETTING },
}));

export function useSettings<T>(selector: (s: SettingsState) => T): T {
  return useStore(settingsStore, selector);
}

export const settings = {
  /** Writes the settings in use to storage, so a first visit records the defaults too. */
  persist(): void {
    const { language, appSetting } = settingsStore.getState();
    storage.set('language', language);
    storage.set('appSetting', appSetting);
  },
  setLanguage(language: Locale): void {
    storage.set('language', language);
    settingsStore.setState({ language });
  },
  setAppSetting(patch: Partial<AppSetting>): void {
    const appSetting = { ...settingsStore.getState().appSetting, ...patch };
    storage.set('appSetting', appSetting);
    settingsStore.setState({ appSetting });
  },
};
