import { useTranslation } from 'react-i18next';
import { EMOJI } from '../../lib/emoji';
import { Sheet } from '../Sheet';
import './reactions.css';

/** The whole emoji panel as a sheet, for a reaction the quick row does not offer. */
export function ReactionPicker({ onPick, onClose }: { onPick(emoji: string): void; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Sheet title={t('reactions.pick')} onClose={onClose}>
      <div className="reaction-picker" role="group" aria-label={t('reactions.pick')}>
        {EMOJI.map((e) => (
          <button key={e} type="button" aria-label={t('reactions.react', { emoji: e })} onClick={() => onPick(e)}>
            {e}
          </button>
        ))}
      </div>
    </Sheet>
  );
}
