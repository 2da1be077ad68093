import { FRIEND_NOTE_MAX, UNITS_PER_GRAPHEME_MAX } from '@sparrow/protocol';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { useSession } from '../stores/session';

interface Props {
  userId: number;
  /** The person's scanned QR token: adds them even where search would not find them. */
  token?: string;
  /** After the request went out (or made us friends at once). */
  onSent?: () => void;
}

/** "Add to contacts": a note for the person, then the request (docs/protocol.md friend/add). */
export function AddFriendForm({ userId, token, onSent }: Props) {
  const { t } = useTranslation();
  const me = useSession((s) => s.user);
  const id = useId();
  const [note, setNote] = useState(() => t('friend.defaultNote', { name: me?.realname ?? '' }));
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  const handleSubmit = async () => {
    setBusy(true);
    try {
      await api.friendAdd({ user_id: userId, remark: note.trim(), ...(token && { token }) }, { loading: true });
      setSent(true);
      onSent?.();
    } catch {
      // The request layer said why (already friends, already asked…).
    } finally {
      setBusy(false);
    }
  };

  if (sent) return <p className="form-note friend-sent">{t('friend.sent')}</p>;
  return (
    <form
      className="add-friend"
      onSubmit={(e) => {
        e.preventDefault();
        void handleSubmit();
      }}
    >
      <label className="add-friend-label" htmlFor={id}>
        {t('friend.noteLabel')}
      </label>
      <textarea
        id={id}
        className="add-friend-note"
        rows={2}
        maxLength={FRIEND_NOTE_MAX * UNITS_PER_GRAPHEME_MAX}
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
      <button type="submit" className="button button-primary" disabled={busy}>
        {t('friend.send')}
      </button>
    </form>
  );
}
