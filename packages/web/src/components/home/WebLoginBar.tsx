import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { qrPaths } from '../../nav/paths';
import { MonitorIcon } from '../qr/device';
import { useWebSessions } from '../qr/use-web-sessions';

/** "网页端已登录" above the conversation list while a computer is signed in by QR login; opens the page that signs it out. */
export function WebLoginBar() {
  const { t } = useTranslation();
  const { sessions } = useWebSessions();
  if (!sessions?.length) return null;
  return (
    <Link className="web-login-bar" to={qrPaths.webLogin}>
      <MonitorIcon />
      {t('qrLogin.bar')}
    </Link>
  );
}
