import type { DeviceSession } from '@sparrow/protocol';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../components/feedback';
import { Page } from '../../components/Page';
import { placeLabel, viaLabel } from '../../components/devices/session-text';
import { useSessions } from '../../components/devices/use-sessions';
import { deviceLabel, MonitorIcon } from '../../components/qr/device';
import { formatRelative } from '../../lib/relative-time';
import { useNow } from '../../lib/use-now';
import { useBackTo } from '../../nav/navigation';
import { paths } from '../../nav/paths';
import '../../components/qr/qr.css';
import './devices.css';

/**
 * 登录设备 (Settings → 账号与安全): every device signed in to my account, this one first and marked,
 * each with where, how and when it was last active; 退出登录 ends one, 退出其他所有设备 every other,
 * each after a confirm. An ended device returns to its login page at once.
 */
export default function DevicesPage() {
  const { t, i18n } = useTranslation();
  const back = useBackTo(paths.secure);
  const now = useNow();
  const { sessions, end, endOthers } = useSessions();
  const others = (sessions ?? []).filter((s) => !s.current).length;

  const handleEnd = async (session: DeviceSession) => {
    const sure = await feedback.confirm({
      content: t('devices.endConfirm', { device: deviceLabel(session.device, t) }),
      confirmText: t('devices.end'),
      cancelText: t('common.cancel'),
      danger: true,
    });
    if (sure) await end(session.session_id).catch(() => undefined);
  };

  const handleEndOthers = async () => {
    const sure = await feedback.confirm({
      content: t('devices.endOthersConfirm', { count: others }),
      confirmText: t('devices.endOthers'),
      cancelText: t('common.cancel'),
      danger: true,
    });
    if (sure) await endOthers().catch(() => undefined);
  };

  return (
    <Page title={t('routes.devices')} onBack={back}>
      <p className="web-sessions-hint">{t('devices.hint')}</p>
      <ul className="web-sessions" aria-busy={sessions === null} aria-label={t('devices.listLabel')}>
        {(sessions ?? []).map((s) => {
          const name = deviceLabel(s.device, t);
          const place = placeLabel(s, t);
          return (
            <li key={s.session_id} className="web-session device-session">
              <MonitorIcon className="web-session-icon" />
              <div className="web-session-who">
                <strong>
                  {name}
                  {s.current && <span className="tag tag-ok device-current">{t('devices.current')}</span>}
                </strong>
                <span>{[place, viaLabel(s.via, t)].filter(Boolean).join(' · ')}</span>
                <span>
                  {s.current
                    ? t('devices.activeNow')
                    : t('devices.lastActive', { time: formatRelative(s.last_seen, now, t, i18n.language) })}
                </span>
              </div>
              {!s.current && (
                <button
                  type="button"
                  className="button button-danger web-session-end"
                  aria-label={t('devices.endNamed', { device: name })}
                  onClick={() => void handleEnd(s)}
                >
                  {t('devices.end')}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {others > 0 && (
        <div className="actions">
          <button type="button" className="button button-danger" onClick={() => void handleEndOthers()}>
            {t('devices.endOthers')}
          </button>
        </div>
      )}
    </Page>
  );
}
