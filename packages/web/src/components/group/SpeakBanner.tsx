import { SoundMuteOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { SpeakState } from '../../stores/group-rules';
import { formatMuteEnd } from './format';
import './group.css';

/** The line saying why I cannot speak in a group: muted until a time, or who alone may speak. */
export function speakText(
  state: SpeakState | null,
  t: ReturnType<typeof useTranslation>['t'],
  locale: string,
  now = Date.now(),
): string | null {
  if (!state || state.canSpeak) return null;
  switch (state.reason) {
    case 'muted':
      return t('group.speak.muted', { time: formatMuteEnd(state.until, now, locale) });
    case 'onlyAdmins':
      return t('group.speak.onlyAdmins');
    case 'onlyOwner':
      return t('group.speak.onlyOwner');
    case 'notMember':
      return t('group.speak.notMember');
  }
}

/** A banner under the navigation bar while I cannot speak in the group (spec §6). */
export function SpeakBanner({ state }: { state: SpeakState | null }) {
  const { t, i18n } = useTranslation();
  const text = speakText(state, t, i18n.language);
  if (!text) return null;
  return (
    <div className="gm-speak-banner" role="status">
      <SoundMuteOutline aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}
