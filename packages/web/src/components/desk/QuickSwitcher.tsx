import type { Contact } from '@sparrow/protocol';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { contactKey, contactName } from '../../lib/conversation-list';
import { imeComposing } from '../../lib/desk-keys';
import { useContacts } from '../../stores/contacts';
import { ContactAvatar } from '../ContactAvatar';
import { Sheet } from '../Sheet';
import './desk.css';
import { switcherResults } from './switcher-results';

/** Ctrl/⌘+K: a dialog that finds any chat or contact by name and opens its chat with Enter. */
export function QuickSwitcher({ onOpen, onClose }: { onOpen: (key: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const rows = useContacts((s) => s.rows);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const results = useMemo(() => switcherResults(Object.values(rows), query), [rows, query]);
  const current = results[Math.min(active, results.length - 1)];

  // After the dialog has taken focus for itself on opening.
  useEffect(() => {
    const frame = requestAnimationFrame(() => input.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, []);

  const handleKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (imeComposing(e.nativeEvent)) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = results.length;
      if (n > 0) setActive((i) => (Math.min(i, n - 1) + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
    } else if (e.key === 'Enter' && current) {
      e.preventDefault();
      onOpen(contactKey(current.id));
    }
  };

  const optionId = (c: Contact) => `${listId}-${contactKey(c.id)}`;
  return (
    <Sheet title={t('desk.switcherTitle')} onClose={onClose}>
      <div className="switcher">
        <input
          ref={input}
          className="switcher-input"
          type="text"
          role="combobox"
          aria-label={t('desk.switcherLabel')}
          aria-expanded={results.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={current ? optionId(current) : undefined}
          placeholder={t('desk.switcherLabel')}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={handleKey}
        />
        <ul className="switcher-list" id={listId} role="listbox" aria-label={t('desk.switcherTitle')}>
          {results.map((c, i) => (
            <li
              key={contactKey(c.id)}
              id={optionId(c)}
              role="option"
              aria-selected={c === current}
              className="switcher-option"
              onMouseEnter={() => setActive(i)}
              onClick={() => onOpen(contactKey(c.id))}
            >
              <ContactAvatar contact={c} size={36} />
              <span className="switcher-name">{contactName(c, t)}</span>
              {c.is_group === 1 && <span className="switcher-kind">{t('desk.group')}</span>}
            </li>
          ))}
        </ul>
        {results.length === 0 && (
          <p className="switcher-empty" role="status">
            {t('desk.switcherEmpty')}
          </p>
        )}
        <p className="switcher-hint">{t('desk.switcherHint')}</p>
      </div>
    </Sheet>
  );
}
