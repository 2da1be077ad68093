import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../Avatar';
import { SearchBar } from '../SearchBar';
import { Sheet } from '../Sheet';

export interface Mentionable {
  id: number;
  name: string;
  avatar: string;
}

interface Props {
  people: readonly Mentionable[];
  /** Owners and administrators may mention everyone (id 0). */
  canMentionAll: boolean;
  onPick: (who: Mentionable) => void;
  onClose: () => void;
}

/** "Choose who to remind": the group's members, and everyone for owners and admins. */
export function MentionPicker({ people, canMentionAll, onPick, onClose }: Props) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? people.filter((p) => p.name.toLowerCase().includes(q)) : people;
  }, [people, query]);
  const everyone: Mentionable = { id: 0, name: t('chat.everyone'), avatar: '' };
  return (
    <Sheet title={t('chat.mentionTitle')} onClose={onClose}>
      <SearchBar value={query} onChange={setQuery} placeholder={t('common.search')} />
      <ul className="pick-list">
        {canMentionAll && !query && (
          <li>
            <button type="button" className="pick-row" onClick={() => onPick(everyone)}>
              <span className="avatar avatar-icon avatar-green" style={{ width: 36, height: 36 }} aria-hidden="true">
                @
              </span>
              <span className="pick-name">{everyone.name}</span>
            </button>
          </li>
        )}
        {shown.map((p) => (
          <li key={p.id}>
            <button type="button" className="pick-row" onClick={() => onPick(p)}>
              <Avatar src={p.avatar} name={p.name} alt="" size={36} />
              <span className="pick-name">{p.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </Sheet>
  );
}
