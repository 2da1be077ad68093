import { useEffect, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { DelayedSpinner } from '../components/DelayedSpinner';
import { usePane } from '../components/desk/pane';
import { loadWithTimeout } from '../lib/lazy';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

export type LazyPage<P = object> = ComponentType<P> & { preload: () => Promise<unknown> };

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  // Beside the wide layout's middle page (the list, the right panel) it is no second main landmark.
  const pane = usePane()?.pane;
  const Landmark = pane === 'list' || pane === 'panel' ? 'div' : 'main';
  return (
    <Landmark id={Landmark === 'main' ? 'main' : undefined} className="load-failed">
      <h1 className="load-failed-title">{t('lazy.failedTitle')}</h1>
      <p className="load-failed-desc">{t('lazy.failedDesc')}</p>
      <button type="button" className="button button-primary" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </Landmark>
  );
}

/**
 * A route's page as its own chunk: nothing for LAZY_DELAY_MS, then a spinner; a retry screen
 * when the chunk fails or does not arrive within LAZY_TIMEOUT_MS.
 */
export function lazyPage<P extends object = object>(loader: Loader<P>): LazyPage<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;

  const load = (): Promise<ComponentType<P>> => {
    pending ??= loadWithTimeout(loader).then(
      (mod) => (loaded = mod.default),
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };

  function Lazy(props: P) {
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
      return <Loaded {...props} />;
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
