import 'i18next';
import type zhHans from './locales/zh-Hans.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhHans };
  }
}
