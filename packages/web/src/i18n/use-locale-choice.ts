import type { Locale } from '@sparrow/protocol';
import { useState } from 'react';
import { useSettings } from '../stores/settings';
import { changeLocale } from '.';

/**
 * The interface language as a picker shows it: the one just chosen at once, while its messages
 * are fetched, then the one in use. `onFailed` hears of a choice whose messages could not be
 * fetched (offline); the picker then shows the language still in use.
 */
export function useLocaleChoice(onFailed: () => void): [Locale, (locale: Locale) => void] {
  const language = useSettings((s) => s.language);
  const [chosen, setChosen] = useState<Locale | null>(null);
  const choose = (locale: Locale) => {
    setChosen(locale);
    changeLocale(locale).then(
      () => setChosen(null),
      () => {
        setChosen(null);
        onFailed();
      },
    );
  };
  return [chosen ?? language, choose];
}
