import { PhoneFill } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { liveCallPath } from '../../call/start';
import { formatDuration } from '../../call/signal';
import { useCall } from '../../call/store';
import { useNow } from '../../lib/use-now';
import { callPaths } from '../../nav/paths';
import './call.css';

/**
 * A call goes on while other pages are shown (the back gesture left its screen, say): a bar at the
 * top tells so and leads back to it.
 */
export default function CallReturn() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const call = useCall((s) => s.call);
  const now = useNow(1000);
  const path = call && call.phase !== 'ended' ? liveCallPath() : null;
  if (!call || !path || pathname === callPaths.call) return null;
  const time = call.connectedAt !== undefined ? formatDuration((now - call.connectedAt) / 1000) : null;
  return (
    <button type="button" className="call-return" onClick={() => void navigate(path)}>
      <PhoneFill aria-hidden="true" />
      <span>{t('call.return')}</span>
      {time && <time>{time}</time>}
    </button>
  );
}
