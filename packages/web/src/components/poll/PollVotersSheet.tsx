import { POLL_VOTERS_LISTED_MAX, type MessageOf, type PollVoter } from '@sparrow/protocol';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { Avatar } from '../Avatar';
import { Sheet } from '../Sheet';
import './poll.css';

/**
 * Who chose each option of a named poll, option by option, as the server names them for me; an
 * option with more voters than the server lists says so.
 */
export function PollVotersSheet({ message, onClose }: { message: MessageOf<'poll'>; onClose: () => void }) {
  const { t } = useTranslation();
  const [voters, setVoters] = useState<PollVoter[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    api.pollVoters({ id: message.msg_id }).then(
      (list) => live && setVoters(list),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [message.msg_id]);

  return createPortal(
    <Sheet title={t('poll.votersTitle')} onClose={onClose}>
      <div className="poll-voters">
        {failed && (
          <p className="poll-voters-none" role="alert">
            {t('poll.votersFailed')}
          </p>
        )}
        {message.extends.options.map((o, i) => {
          const here = (voters ?? []).filter((v) => v.option === i);
          const cut = here.length >= POLL_VOTERS_LISTED_MAX && o.count > here.length;
          return (
            <section key={i} className="poll-voters-option" aria-label={o.text}>
              <h3 className="poll-voters-head">
                {o.text}
                <span className="poll-voters-count">{t('poll.count', { count: o.count })}</span>
              </h3>
              {failed ? null : voters !== null && here.length === 0 ? (
                <p className="poll-voters-none">{t('poll.noVoters')}</p>
              ) : (
                <ul className="poll-voters-list">
                  {here.map((v) => (
                    <li key={v.user_id} className="poll-voter">
                      <Avatar src={v.avatar} name={v.name} alt="" size={32} />
                      <span>{v.name}</span>
                    </li>
                  ))}
                  {cut && <li className="poll-voters-none">{t('poll.votersCut', { max: POLL_VOTERS_LISTED_MAX })}</li>}
                </ul>
              )}
            </section>
          );
        })}
      </div>
    </Sheet>,
    document.body,
  );
}

export default PollVotersSheet;
