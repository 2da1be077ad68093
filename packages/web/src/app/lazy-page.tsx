import { useEffect, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { DelayedSpinner } from '../components/DelayedSpinner';
import { loadWithTimeout } from '../lib/lazy';

type Loader = () => Promise<{ default: ComponentType }>;

export type LazyPage = ComponentType & { preload: () => Promise<unknown> };

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <main id="main" className="load-failed">
      <h1 className="load-failed-title">{t('lazy.failedTitle')}</h1>
      <p className="load-failed-desc">{t('lazy.failedDesc')}</p>
      <button type="button" className="button button-primary" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </main>
  );
}

/**
 * A route's page as its own chunk: nothing for LAZY_DELAY_MS, then a spinner; a retry screen
 * when the chunk fails or does not arrive within LAZY_TIMEOUT_MS.
 */
export function lazyPage(loader: Loader): LazyPage {
  let loaded: ComponentType | null = null;
  let pending: Promise<ComponentType> | null = null;

  const load = (): Promise<ComponentType> => {
    pending ??= loadWithTimeout(loader).then(
      (mod) => (loaded = mod.default),
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };

  function Lazy() {
    const [attempt, setAttempt] = useState(0);
    const [failed, setFailed] = useState(false);
    const [, setReady] = useState(false);
    useEffect(() => {
      if (loaded) return;
      let live = true;
      load().then(
        () => live && setReady(true),
        () => live && setFailed(true),
      );
      return () => {
        live = false;
      };
    }, [attempt]);

    if (loaded) {
      const Loaded = loaded;
      return <Loaded />;
    }
    if (failed) {
      return (
        <LoadFailed
          onRetry={() => {
            setFailed(false);
            setAttempt((n) => n + 1);
          }}
        />
      );
    }
    return <DelayedSpinner />;
  }

  return Object.assign(Lazy, { preload: load });
}
