import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { Page } from '../../components/Page';
import { QrCard } from '../../components/qr/QrCard';
import { session, useSession } from '../../stores/session';

/**
 * 我的二维码 (`/pages/index/mycode`): my code, fresh from checkuser (a new one, valid seven days,
 * each time), so a friend who scans it lands on my card (用户分享).
 */
export default function MyCodePage() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const [failed, setFailed] = useState(false);

  const refresh = useCallback(async () => {
    session.setUser(await api.checkuser({}, { quiet: true }));
    setFailed(false);
  }, []);

  useEffect(() => {
    refresh().catch(() => setFailed(true));
  }, [refresh]);

  // A code stored before the last start may be stale; it is shown only while it still works.
  const stored = user && user.qrExpire > Date.now() ? user.qrUrl : null;
  const name = user?.realname || user?.displayName || '';
  return (
    <Page title={t('qr.routes.mycode')}>
      {failed && !stored ? (
        <div className="notice" role="alert">
          <h2>{t('qr.card.loadFailed')}</h2>
          <div className="actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => void refresh().catch(() => setFailed(true))}
            >
              {t('common.retry')}
            </button>
          </div>
        </div>
      ) : (
        <QrCard
          title={name}
          subtitle={user ? t('me.account', { account: user.account }) : ''}
          avatar={user?.avatar ?? ''}
          qrUrl={stored}
          qrExpire={user?.qrExpire ?? 0}
          hint={t('qr.card.mineHint')}
          onRefresh={refresh}
        />
      )}
    </Page>
  );
}
