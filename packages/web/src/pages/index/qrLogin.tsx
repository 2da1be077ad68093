import type { QrLoginScan } from '@sparrow/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api';
import { deviceLabel, MonitorIcon } from '../../components/qr/device';
import { Page } from '../../components/Page';
import { fromScanner } from '../../lib/scan-target';
import { paths, qrPaths } from '../../nav/paths';
import '../../components/qr/qr.css';

/** `link`: the page was opened other than by 扫一扫 (a link, a typed address, a reload) and acts on nothing. */
type View = { kind: 'checking' } | { kind: 'ready'; scan: QrLoginScan } | { kind: 'gone' } | { kind: 'link' };

/**
 * 网页端登录 (`/pages/index/qrLogin?token=`): where a desktop's login code lands after 扫一扫.
 * Scanning claims the code for this user; the page names the device that showed it and asks
 * "在网页端登录？" with its address: 登录 signs that device in with a session of its own, 取消
 * tells it no. Only a code 扫一扫 hands on (its navigation state) is scanned: opened from a link
 * posted in a chat, a typed address or a reload, the page calls nothing (the code's poller would
 * otherwise see this user's name and avatar, and the user be offered 登录 for a stranger's page)
 * and says to scan the code instead.
 */
export default function QrLoginConfirmPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const code = useSearchParams()[0].get('token') ?? '';
  const [scanned] = useState(() => fromScanner(location.state));
  const [view, setView] = useState<View>(scanned ? { kind: 'checking' } : { kind: 'link' });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!scanned) return;
    // The hand-off is used once: a reload of this page arrives without it.
    void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
    let live = true;
    api.qrLoginScan({ code }, { silent: true }).then(
      (scan) => live && setView({ kind: 'ready', scan }),
      () => live && setView({ kind: 'gone' }),
    );
    return () => {
      live = false;
    };
    // The page's address is read once, as it arrived.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [code, scanned]);

  const home = () => void navigate(paths.home, { replace: true });

  const handleConfirm = async () => {
    setBusy(true);
    try {
      await api.qrLoginConfirm({ code }, { loading: true });
      home();
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
    home();
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
            {view.scan.ip && <p className="qr-confirm-address">{t('qrLogin.address', { ip: view.scan.ip })}</p>}
            <p className="qr-confirm-hint">{t('qrLogin.confirmHint')}</p>
          </>
        )}
        {view.kind === 'link' && (
          <>
            <h2 id="qr-confirm-title">{t('qrLogin.linkTitle')}</h2>
            <p className="qr-confirm-hint" role="alert">
              {t('qrLogin.linkHint')}
            </p>
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
        ) : view.kind === 'link' || view.kind === 'gone' ? (
          <>
            {view.kind === 'link' && (
              <button
                type="button"
                className="button button-primary"
                onClick={() => void navigate(qrPaths.scan, { replace: true })}
              >
                {t('qr.routes.scan')}
              </button>
            )}
            <button type="button" className="button button-default" onClick={home}>
              {t('qrLogin.back')}
            </button>
          </>
        ) : null}
      </div>
    </Page>
  );
}
