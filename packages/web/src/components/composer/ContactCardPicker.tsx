import type { Contact } from '@sparrow/protocol';
import { useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { ContactKey } from '../../lib/conversation-list';
import { useContacts } from '../../stores/contacts';
import { Avatar } from '../Avatar';
import { EmptyState } from '../EmptyState';
import { feedback } from '../feedback';
import { SearchBar } from '../SearchBar';
import { Sheet } from '../Sheet';
import { UserContactOutline } from 'antd-mobile-icons';
import { sendContactCard } from './send-media';
import '../lists.css';
import './composer.css';

type Person = Contact & { user_id: number };

const isPerson = (c: Contact): c is Person =>
  c.is_group === 0 && typeof c.id === 'number' && c.id > 0 && typeof c.user_id === 'number';

/** Chooses whose contact card to send: my contacts, searchable by name, confirmed before sending. */
export function ContactCardPicker({ chatKey, onClose }: { chatKey: ContactKey; onClose: () => void }) {
  const { t } = useTranslation();
  const rows = useContacts((s) => s.rows);
  const [query, setQuery] = useState('');
  const people = useMemo(() => {
    const q = query.trim().toLowerCase();
    return Object.values(rows)
      .filter(isPerson)
      .filter((c) => !q || c.displayName.toLowerCase().includes(q) || (c.realname ?? '').toLowerCase().includes(q))
      .sort((a, b) => a.index.localeCompare(b.index) || a.displayName.localeCompare(b.displayName));
  }, [rows, query]);

  const pick = async (person: Person) => {
    const ok = await feedback
      .confirm({
        title: t('media.card.confirmTitle'),
        content: t('media.card.confirm', { name: person.displayName }),
        confirmText: t('chat.send'),
        cancelText: t('common.cancel'),
      })
      .catch(() => false);
    if (!ok) return;
    sendContactCard(chatKey, person);
    onClose();
  };

  return createPortal(
    <Sheet title={t('media.card.pick')} onClose={onClose}>
      <SearchBar value={query} onChange={setQuery} placeholder={t('common.search')} />
      {people.length === 0 ? (
        <EmptyState
          icon={<UserContactOutline />}
          title={t('media.card.none')}
          description={query ? t('media.card.noMatch') : t('media.card.noneHint')}
        />
      ) : (
        <ul className="pick-list card-pick-list">
          {people.map((p) => (
            <li key={p.id}>
              <button type="button" className="pick-row" onClick={() => void pick(p)}>
                <Avatar src={p.avatar} name={p.displayName} alt="" size={40} />
                <span className="card-pick-name">{p.displayName}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Sheet>,
    document.body,
  );
}
