import type { GroupInfo } from '@sparrow/protocol';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api, ApiError } from '../../api';
import { DelayedSpinner } from '../../components/DelayedSpinner';
import { feedback } from '../../components/feedback';
import { Page } from '../../components/Page';
import { QrCard } from '../../components/qr/QrCard';

/**
 * 群二维码 (`/pages/index/qrcode?id=group-N`): the group's code, for its members; the owner and
 * administrators may reset it, which stops every code shown before from letting anyone in.
 */
export default function GroupCodePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const [info, setInfo] = useState<GroupInfo | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    setInfo(await api.groupInfo({ group_id: id }, { quiet: true }));
    setError(null);
  }, [id]);

  const handleReset = async () => {
    const ok = await feedback
      .confirm({
        content: t('qr.card.resetConfirm'),
        confirmText: t('qr.card.reset'),
        cancelText: t('common.cancel'),
      })
      .catch(() => false);
    if (!ok) return;
    try {
      const fresh = await api.resetGroupQr({ group_id: id }, { loading: true });
      setInfo((shown) => (shown ? { ...shown, ...fresh } : shown));
      feedback.toast(t('qr.card.resetDone'));
    } catch {
      // The request layer said why.
    }
  };

  useEffect(() => {
    refresh().catch((e: unknown) => setError(e instanceof ApiError ? e.message : t('qr.card.loadFailed')));
  }, [refresh, t]);

  return (
    <Page title={t('qr.routes.qrcode')}>
      {error ? (
        <div className="notice" role="alert">
          <h2>{t('qr.card.loadFailed')}</h2>
          <p>{error}</p>
        </div>
      ) : info ? (
        <>
          <QrCard
            title={info.displayName || info.name}
            subtitle={t('qr.card.members', { count: info.member_count })}
            avatar={info.avatar}
            qrUrl={info.qrUrl}
            qrExpire={info.qrExpire}
            hint={t('qr.card.groupHint')}
            onRefresh={refresh}
          />
          {(info.isJoin === 1 || info.isJoin === 2) && (
            <div className="actions">
              <button type="button" className="button button-default" onClick={() => void handleReset()}>
                {t('qr.card.reset')}
              </button>
            </div>
          )}
        </>
      ) : (
        <DelayedSpinner />
      )}
    </Page>
  );
}
