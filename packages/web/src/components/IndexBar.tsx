import { useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import './lists.css';

interface Props {
  letters: readonly string[];
  onSelect: (index: number) => void;
}

/**
 * The A–Z strip on the right of the contact list: tap a letter, or slide a finger along the
 * strip, to jump to that letter; the letter under the finger shows large in the middle.
 */
export function IndexBar({ letters, onSelect }: Props) {
  const { t } = useTranslation();
  const [active, setActive] = useState<string | null>(null);

  const pick = (e: PointerEvent) => {
    const el = document.elementFromPoint(e.clientX, e.clientY) as HTMLElement | null;
    const letter = el?.closest<HTMLElement>('[data-letter]')?.dataset.letter;
    if (!letter) return;
    const i = letters.indexOf(letter);
    if (i < 0) return;
    if (letter !== active) {
      setActive(letter);
      onSelect(i);
    }
  };

  if (letters.length === 0) return null;
  return (
    <>
      <nav
        className="indexbar"
        aria-label={t('contacts.indexBar')}
        onPointerDown={(e) => {
          (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
          pick(e);
        }}
        onPointerMove={(e) => {
          if (active) pick(e);
        }}
        onPointerUp={() => setActive(null)}
        onPointerCancel={() => setActive(null)}
      >
        <ul>
          {letters.map((l, i) => (
            <li key={l}>
              <button
                type="button"
                data-letter={l}
                className={`indexbar-letter${active === l ? ' indexbar-active' : ''}`}
                aria-label={t('contacts.jumpTo', { letter: l })}
                onClick={() => onSelect(i)}
              >
                {l}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      {active && (
        <div className="indexbar-bubble" aria-hidden="true">
          {active}
        </div>
      )}
    </>
  );
}
