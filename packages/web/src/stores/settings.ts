import { DEFAULT_APP_SETTING, preferredLocale, type AppSetting, type Locale } from '@sparrow/protocol';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { ThemeChoice } from '../lib/color-theme';
import { DEFAULT_SEND_KEY, type SendKey } from '../lib/desk-keys';
import { storage } from '../lib/storage';

export interface SettingsState {
  language: Locale;
  appSetting: AppSetting;
  /** The colour theme (深色模式, this device only); `system` follows prefers-color-scheme. */
  theme: ThemeChoice;
  /** Notifications from the open page while it is hidden (桌面通知, this device only). */
  desktopNotify: boolean;
  /** Which key sends a message at a keyboard (this device only). */
  sendKey: SendKey;
}

/** The browser's languages, when it tells them. */
const deviceLanguages = (): readonly string[] =>
  typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);

/**
 * Device settings (docs/product.md §3 App setting, language), mirrored to localStorage. Until the user picks
 * a language, the browser's own is followed.
 */
export const settingsStore = createStore<SettingsState>()(() => ({
  language: storage.get('language') ?? preferredLocale(deviceLanguages()),
  appSetting: storage.get('appSetting') ?? { ...DEFAULT_APP_SETTING },
  theme: storage.get('theme') ?? 'system',
  desktopNotify: storage.get('desktopNotify')?.on === true,
  sendKey: storage.get('sendKey') ?? DEFAULT_SEND_KEY,
}));

export function useSettings<T>(selector: (s: SettingsState) => T): T {
  return useStore(settingsStore, selector);
}

export const settings = {
  /**
   * Writes the settings in use to storage, so a first visit records the defaults too; the language
   * only once chosen, so that until then it follows the browser's.
   */
  persist(): void {
    storage.set('appSetting', settingsStore.getState().appSetting);
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
  setTheme(theme: ThemeChoice): void {
    storage.set('theme', theme);
    settingsStore.setState({ theme });
  },
  setDesktopNotify(on: boolean): void {
    storage.set('desktopNotify', { on });
    settingsStore.setState({ desktopNotify: on });
  },
  setSendKey(sendKey: SendKey): void {
    storage.set('sendKey', sendKey);
    settingsStore.setState({ sendKey });
  },
};
