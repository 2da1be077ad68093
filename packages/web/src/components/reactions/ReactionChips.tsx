import type { Reaction } from '@sparrow/protocol';
import { useTranslation } from 'react-i18next';
import { useLongPress } from '../../lib/use-long-press';
import './reactions.css';

interface Props {
  reactions: readonly Reaction[];
  /** Tap: puts my reaction on, or takes it back. */
  onToggle(emoji: string, on: 0 | 1): void;
  /** Long press: who reacted with it. */
  onWho(emoji: string): void;
}

/** The reactions under a bubble: a chip per emoji with its count, marked when one of them is mine. */
export function ReactionChips({ reactions, onToggle, onWho }: Props) {
  const { t } = useTranslation();
  return (
    <ul className="reaction-chips" aria-label={t('reactions.list')}>
      {reactions.map((r) => (
        <li key={r.emoji}>
          <Chip
            reaction={r}
            onToggle={onToggle}
            onWho={onWho}
            label={t(r.mine ? 'reactions.chipMine' : 'reactions.chipLabel', { emoji: r.emoji, count: r.count })}
          />
        </li>
      ))}
    </ul>
  );
}

function Chip({
  reaction,
  label,
  onToggle,
  onWho,
}: {
  reaction: Reaction;
  label: string;
} & Pick<Props, 'onToggle' | 'onWho'>) {
  const press = useLongPress(() => onWho(reaction.emoji));
  return (
    <button
      type="button"
      className={`reaction-chip${reaction.mine ? ' reaction-chip-mine' : ''}`}
      aria-pressed={reaction.mine === 1}
      aria-label={label}
      {...press}
      onClick={() => onToggle(reaction.emoji, reaction.mine ? 0 : 1)}
    >
      <span className="reaction-emoji" aria-hidden="true">
        {reaction.emoji}
      </span>
      <span className="reaction-count" aria-hidden="true">
        {reaction.count}
      </span>
    </button>
  );
}
