import { QUICK_REACTIONS } from '../../lib/quick-reactions';
import { AddOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import './reactions.css';

interface Props {
  /** The emoji I already put on the message, shown as chosen. */
  mine: ReadonlySet<string>;
  onPick(emoji: string): void;
  /** Opens the whole emoji panel. */
  onMore(): void;
}

/** The row of quick reactions at the top of a message's long-press menu, and "more" for the emoji panel. */
export function QuickReactions({ mine, onPick, onMore }: Props) {
  const { t } = useTranslation();
  return (
    <div className="quick-reactions" role="group" aria-label={t('reactions.quick')}>
      {QUICK_REACTIONS.map((emoji) => (
        <button
          key={emoji}
          type="button"
          className={`quick-reaction${mine.has(emoji) ? ' quick-reaction-mine' : ''}`}
          role="menuitem"
          aria-label={t('reactions.react', { emoji })}
          aria-current={mine.has(emoji) || undefined}
          onClick={() => onPick(emoji)}
        >
          {emoji}
        </button>
      ))}
      <button
        type="button"
        role="menuitem"
        className="quick-reaction quick-reaction-more"
        aria-label={t('reactions.more')}
        onClick={onMore}
      >
        <AddOutline aria-hidden="true" />
      </button>
    </div>
  );
}
