import { TextDeletionOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { EMOJI } from '../../lib/emoji';

interface Props {
  onPick: (emoji: string) => void;
  onBackspace: () => void;
  onSend: () => void;
  canSend: boolean;
}

/** The emoji keyboard: Unicode emoji that go into the text, a backspace and a send key. */
export function EmojiPanel({ onPick, onBackspace, onSend, canSend }: Props) {
  const { t } = useTranslation();
  return (
    <div className="emoji-panel" role="group" aria-label={t('chat.emojiPanel')}>
      <div className="emoji-grid">
        {EMOJI.map((e) => (
          <button key={e} type="button" className="emoji-key" onClick={() => onPick(e)}>
            {e}
          </button>
        ))}
      </div>
      <div className="emoji-keys">
        <button type="button" className="emoji-action" aria-label={t('chat.backspace')} onClick={onBackspace}>
          <TextDeletionOutline aria-hidden="true" />
        </button>
        <button type="button" className="emoji-action emoji-send" disabled={!canSend} onClick={onSend}>
          {t('chat.send')}
        </button>
      </div>
    </div>
  );
}
