import { SoundMuteOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { translate } from '../../i18n';
import type { SpeakState } from '../../stores/group-rules';
import { formatMuteEnd } from './format';
import './group.css';

/**
 * The line saying why I cannot speak in a group: muted until a time, or who alone may speak. Through
 * `translate`: i18next's typed `t` passed as a value grows past the compiler's depth limit once the
 * catalogue is large.
 */
export function speakText(state: SpeakState | null, locale: string, now = Date.now()): string | null {
  if (!state || state.canSpeak) return null;
  switch (state.reason) {
    case 'muted':
      return translate('group.speak.muted', { time: formatMuteEnd(state.until, now, locale) });
    case 'onlyAdmins':
      return translate('group.speak.onlyAdmins');
    case 'onlyOwner':
      return translate('group.speak.onlyOwner');
    case 'notMember':
      return translate('group.speak.notMember');
  }
}

/** A banner under the navigation bar while I cannot speak in the group (docs/product.md §6). */
export function SpeakBanner({ state }: { state: SpeakState | null }) {
  const { i18n } = useTranslation();
  const text = speakText(state, i18n.language);
  if (!text) return null;
  return (
    <div className="gm-speak-banner" role="status">
      <SoundMuteOutline aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}
