import type { MessageOf } from '@sparrow/protocol';
import { useTranslation } from 'react-i18next';
import { useVoicePlayback } from '../../lib/voice-player';
import { useSession } from '../../stores/session';
import './media.css';

/** Bubble width grows with the clip, as in WeChat: 80 px for a second, up to 210 px for a minute. */
function widthFor(seconds: number): number {
  return Math.round(80 + (130 * Math.min(60, Math.max(1, seconds))) / 60);
}

/** Three arcs that light up in turn while the clip plays. */
export function VoiceWaves({ playing }: { playing: boolean }) {
  return (
    <svg className={`voice-waves${playing ? ' voice-waves-playing' : ''}`} viewBox="0 0 24 24" aria-hidden="true">
      <circle className="voice-wave voice-wave-1" cx="5" cy="12" r="2" />
      <path className="voice-wave voice-wave-2" d="M9 7.5a6.5 6.5 0 0 1 0 9" />
      <path className="voice-wave voice-wave-3" d="M13 4a11.5 11.5 0 0 1 0 16" />
    </svg>
  );
}

/** A voice message: its length, and a tap that plays or stops it; one clip plays at a time. */
export function VoiceBubble({ message, mine: given }: { message: MessageOf<'voice'>; mine?: boolean }) {
  const { t } = useTranslation();
  const me = useSession((s) => s.user?.user_id);
  // My clips point the other way, from the right, as in WeChat.
  const mine = given ?? message.fromUser.id === me;
  const seconds = Math.max(1, Math.round(message.extends.duration));
  const { playing, failed, toggle } = useVoicePlayback(message.id, message.content);
  const length = t('chat.seconds', { count: seconds });
  return (
    <button
      type="button"
      className={`voice${mine ? ' voice-mine' : ''}`}
      style={{ width: widthFor(seconds) }}
      aria-pressed={playing}
      aria-label={playing ? t('media.voice.stop', { count: seconds }) : t('media.voice.play', { count: seconds })}
      onClick={toggle}
    >
      <VoiceWaves playing={playing} />
      <span className="voice-length" aria-hidden="true">
        {length}
      </span>
      {failed && <span className="voice-failed">{t('media.voice.failed')}</span>}
    </button>
  );
}
