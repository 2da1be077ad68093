import type { QrLoginScan } from '@sparrow/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api';
import { deviceLabel, MonitorIcon } from '../../components/qr/device';
import { Page } from '../../components/Page';
import { paths } from '../../nav/paths';
import '../../components/qr/qr.css';

type View = { kind: 'checking' } | { kind: 'ready'; scan: QrLoginScan } | { kind: 'gone' };

/**
 * 网页端登录 (`/pages/index/qrLogin?token=`): where a desktop's login code lands after 扫一扫.
 * Scanning claims the code for this user; the page names the device that showed it and asks
 * "在网页端登录？": 登录 signs that device in with a session of its own, 取消 tells it no.
 */
export default function QrLoginConfirmPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const code = useSearchParams()[0].get('token') ?? '';
  const [view, setView] = useState<View>({ kind: 'checking' });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    api.qrLoginScan({ code }, { silent: true }).then(
      (scan) => live && setView({ kind: 'ready', scan }),
      () => live && setView({ kind: 'gone' }),
    );
    return () => {
      live = false;
    };
  }, [code]);

  const handleConfirm = async () => {
    setBusy(true);
    try {
      await api.qrLoginConfirm({ code }, { loading: true });
      void navigate(paths.home, { replace: true });
    } catch {
      // The request layer said why (a code gone meanwhile).
      setView({ kind: 'gone' });
    } finally {
      setBusy(false);
    }
  };

  const handleCancel = async () => {
    setBusy(true);
    await api.qrLoginCancel({ code }, { silent: true, quiet: true }).catch(() => undefined);
    void navigate(paths.home, { replace: true });
  };

  return (
    <Page title={t('qrLogin.routes.confirm')}>
      <section className="qr-confirm" aria-labelledby="qr-confirm-title" aria-busy={view.kind === 'checking'}>
        <MonitorIcon className="qr-confirm-icon" />
        {view.kind === 'checking' && <p className="qr-confirm-hint">{t('qrLogin.checking')}</p>}
        {view.kind === 'ready' && (
          <>
            <h2 id="qr-confirm-title">{t('qrLogin.confirmTitle')}</h2>
            <p className="qr-confirm-device">{deviceLabel(view.scan.device, t)}</p>
            <p className="qr-confirm-hint">{t('qrLogin.confirmHint')}</p>
          </>
        )}
        {view.kind === 'gone' && (
          <>
            <h2 id="qr-confirm-title">{t('qrLogin.goneTitle')}</h2>
            <p className="qr-confirm-hint" role="alert">
              {t('qrLogin.goneHint')}
            </p>
          </>
        )}
      </section>
      <div className="actions">
        {view.kind === 'ready' ? (
          <>
            <button
              type="button"
              className="button button-primary"
              disabled={busy}
              onClick={() => void handleConfirm()}
            >
              {t('qrLogin.login')}
            </button>
            <button type="button" className="button button-default" disabled={busy} onClick={() => void handleCancel()}>
              {t('qrLogin.cancel')}
            </button>
          </>
        ) : view.kind === 'gone' ? (
          <button
            type="button"
            className="button button-default"
            onClick={() => void navigate(paths.home, { replace: true })}
          >
            {t('qrLogin.back')}
          </button>
        ) : null}
      </div>
    </Page>
  );
}
