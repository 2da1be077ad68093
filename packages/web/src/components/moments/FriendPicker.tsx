import type { Contact } from '@sparrow/protocol';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { contacts, useContacts } from '../../stores/contacts';
import { Avatar } from '../Avatar';

type Friend = Contact & { user_id: number };

/** My friends from the contact list, as the moments pages pick them. */
export function useFriends(): Friend[] {
  const rows = useContacts((s) => s.rows);
  useEffect(() => {
    contacts.load().catch(() => undefined);
  }, []);
  return useMemo(
    () => Object.values(rows).filter((c): c is Friend => c.is_group === 0 && !!c.user_id && c.user_id > 0),
    [rows],
  );
}

interface Props {
  legend: string;
  chosen: ReadonlySet<number>;
  onChange: (next: ReadonlySet<number>) => void;
  /** Shown in place of the list when I have no friends. */
  empty?: string;
}

/** A checkbox per friend: whom a post is shown to or kept from, whom my posts are hidden from or whose I skip. */
export function FriendPicker({ legend, chosen, onChange, empty }: Props) {
  const { t } = useTranslation();
  const friends = useFriends();
  return (
    <fieldset className="moment-people">
      <legend>{legend}</legend>
      {friends.length === 0 && <p className="moment-people-empty">{empty ?? t('moments.noFriends')}</p>}
      {friends.map((f) => (
        <label key={f.user_id}>
          <input
            type="checkbox"
            checked={chosen.has(f.user_id)}
            onChange={(e) => {
              const next = new Set(chosen);
              if (e.target.checked) next.add(f.user_id);
              else next.delete(f.user_id);
              onChange(next);
            }}
          />
          <Avatar src={f.avatar} name={f.displayName} alt="" size={32} />
          {f.displayName}
        </label>
      ))}
    </fieldset>
  );
}
