import type { Reaction, Reactor } from '@sparrow/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { Avatar } from '../Avatar';
import { LoadingRow } from '../LoadingRow';
import { Sheet } from '../Sheet';
import './reactions.css';

interface Props {
  msgId: number;
  /** The message's reactions as shown, for the tabs. */
  reactions: readonly Reaction[];
  /** The tab open first; all reactions when null. */
  emoji: string | null;
  me: number;
  onClose(): void;
}

/** Who reacted to a message (a long press on a chip): a tab per emoji, each person with their face and name. */
export function ReactorsSheet({ msgId, reactions, emoji: first, me, onClose }: Props) {
  const { t } = useTranslation();
  const [emoji, setEmoji] = useState<string | null>(first);
  const [people, setPeople] = useState<Reactor[] | null>(null);
  useEffect(() => {
    let live = true;
    setPeople(null);
    api
      .messageReactions({ id: msgId, ...(emoji && { emoji }) }, { quiet: true })
      .then((list) => live && setPeople(list))
      .catch(() => live && setPeople([]));
    return () => {
      live = false;
    };
  }, [msgId, emoji]);
  return (
    <Sheet title={t('reactions.who')} onClose={onClose}>
      <div className="reactors-tabs" role="group" aria-label={t('reactions.list')}>
        <button type="button" className="reactors-tab" aria-pressed={emoji === null} onClick={() => setEmoji(null)}>
          {t('reactions.all')}
        </button>
        {reactions.map((r) => (
          <button
            key={r.emoji}
            type="button"
            className="reactors-tab"
            aria-pressed={emoji === r.emoji}
            onClick={() => setEmoji(r.emoji)}
          >
            {t('reactions.chip', { emoji: r.emoji, count: r.count })}
          </button>
        ))}
      </div>
      {people === null ? (
        <LoadingRow />
      ) : (
        <ul className="reactors-list">
          {people.map((p) => (
            <li key={`${p.emoji}:${p.user_id}`} className="reactors-row">
              <Avatar src={p.avatar} name={p.name} alt="" size={36} />
              <span className="reactors-name">{p.user_id === me ? t('reactions.you') : p.name}</span>
              <span className="reactors-emoji">{p.emoji}</span>
            </li>
          ))}
        </ul>
      )}
    </Sheet>
  );
}
