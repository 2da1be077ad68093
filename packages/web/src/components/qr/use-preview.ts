import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type RequestOptions } from '../../api';
import { sessionEnded } from '../../session/account';

/** A scanned code's preview: on its way, read, or why it cannot be opened. */
export type Preview<T> = { status: 'loading' } | { status: 'ok'; data: T } | { status: 'error'; message: string };

/**
 * Reads what a scanned code names (userInfoqq, groupInfoqq). Why a code cannot be opened (expired,
 * forged, of the other kind, gone) is the page's content, not a toast; a dead session still leads
 * to the login page, which comes back here.
 */
export function useQrPreview<T>(
  token: string | null,
  load: (token: string, opts: RequestOptions) => Promise<T>,
): { preview: Preview<T>; reload: () => void } {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<Preview<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!token) {
      setPreview({ status: 'error', message: t('qr.landing.missing') });
      return;
    }
    let live = true;
    setPreview({ status: 'loading' });
    load(token, { silent: true }).then(
      (data) => live && setPreview({ status: 'ok', data }),
      (e: unknown) => {
        if (!live) return;
        if (e instanceof ApiError && (e.kind === 'session' || e.kind === 'unauthorized')) {
          sessionEnded();
          return;
        }
        setPreview({ status: 'error', message: e instanceof ApiError ? e.message : t('qr.landing.failed') });
      },
    );
    return () => {
      live = false;
    };
  }, [token, load, attempt, t]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { preview, reload };
}
