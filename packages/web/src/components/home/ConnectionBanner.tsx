import { useTranslation } from 'react-i18next';
import { loadRealtime } from '../../session/connection';
import { useConfig } from '../../stores/config';

/** Says when the push channel is down, WeChat style, above the conversation list. */
export function ConnectionBanner() {
  const { t } = useTranslation();
  const state = useConfig((s) => s.socket);
  if (state !== 'error' && state !== 'waiting') return null;
  const handleReconnect = () => {
    loadRealtime().then(
      ({ socket }) => socket.reconnectNow(),
      () => {
        // The socket module itself did not load: the network is still down, the banner stays.
      },
    );
  };
  return (
    <div className="banner" role="status">
      <span className="banner-text">{state === 'error' ? t('home.connectionError') : t('home.connecting')}</span>
      <button type="button" className="button button-link" onClick={handleReconnect}>
        {t('home.reconnect')}
      </button>
    </div>
  );
}
