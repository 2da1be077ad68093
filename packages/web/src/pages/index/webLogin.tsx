import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { feedback } from '../../components/feedback';
import { deviceLabel, MonitorIcon } from '../../components/qr/device';
import { useWebSessions } from '../../components/qr/use-web-sessions';
import { Page } from '../../components/Page';
import { formatRelative } from '../../lib/relative-time';
import { useNow } from '../../lib/use-now';
import { paths } from '../../nav/paths';
import '../../components/qr/qr.css';

/**
 * 网页端已登录 (`/pages/index/webLogin`): the computers this account signed in by QR login, each
 * with 退出网页端, which ends that session (its page returns to the login).
 */
export default function WebLoginPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const now = useNow();
  const { sessions, end } = useWebSessions();

  useEffect(() => {
    // The last one signed out: nothing left to show here.
    if (sessions?.length === 0) void navigate(paths.home, { replace: true });
  }, [sessions, navigate]);

  const handleEnd = async (sessionId: number) => {
    const sure = await feedback.confirm({
      content: t('qrLogin.endConfirm'),
      confirmText: t('qrLogin.end'),
      cancelText: t('qrLogin.cancel'),
      danger: true,
    });
    if (sure) await end(sessionId).catch(() => undefined);
  };

  return (
    <Page title={t('qrLogin.routes.sessions')}>
      <p className="web-sessions-hint">{t('qrLogin.sessionsHint')}</p>
      <ul className="web-sessions" aria-busy={sessions === null}>
        {(sessions ?? []).map((s) => (
          <li key={s.session_id} className="web-session">
            <MonitorIcon className="web-session-icon" />
            <div className="web-session-who">
              <strong>{deviceLabel(s.device, t)}</strong>
              <span>{t('qrLogin.signedInAt', { time: formatRelative(s.create_time, now, t, i18n.language) })}</span>
            </div>
            <button
              type="button"
              className="button button-danger web-session-end"
              onClick={() => void handleEnd(s.session_id)}
            >
              {t('qrLogin.end')}
            </button>
          </li>
        ))}
      </ul>
    </Page>
  );
}
