import type { MessageOf, PollState } from '@sparrow/protocol';
import { CheckOutline } from 'antd-mobile-icons';
import { lazy, Suspense, useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../api';
import { applyPollState } from '../../chat/polls';
import { contactKey } from '../../lib/conversation-list';
import { useContacts } from '../../stores/contacts';
import { useSession } from '../../stores/session';
import { feedback } from '../feedback';
import './poll.css';

const PollVotersSheet = lazy(() => import('./PollVotersSheet'));

/** The longest wait setTimeout takes, ms. */
const TIMER_MAX_MS = 2 ** 31 - 1;

/** The poll as it stands, sent with a refused vote (ended meanwhile). */
function stateIn(error: unknown): PollState | undefined {
  if (!(error instanceof ApiError) || error.kind !== 'server') return undefined;
  const d = error.data as Partial<PollState> | null | undefined;
  return d && typeof d.poll_id === 'number' && Array.isArray(d.counts) && Array.isArray(d.mine)
    ? (d as PollState)
    : undefined;
}

/**
 * A poll's bubble (投票): its question and options; before I vote (and while changing my vote)
 * the options to choose, one tap on a single-choice poll, ticks and 投票 on a multiple one; after I
 * voted, or once it ended, each option's count and bar. 查看投票人 for a named poll, 结束投票 for
 * its starter and the group's owner and administrators. Counts change live through `poll` pushes;
 * the card ends by itself at the deadline.
 */
export function PollCard({ message }: { message: MessageOf<'poll'> }) {
  const { t, i18n } = useTranslation();
  const questionId = useId();
  const ext = message.extends;
  const key = contactKey(message.toContactId);
  const me = useSession((s) => s.user?.user_id ?? 0);
  const role = useContacts((s) => s.rows[key]?.role);
  const [changing, setChanging] = useState(false);
  const [picked, setPicked] = useState<number[]>([]);
  const [voters, setVoters] = useState(false);
  const [busy, setBusy] = useState(false);
  const [now, setNow] = useState(Date.now);

  // Re-rendered at the deadline, so that the options give way to the results.
  useEffect(() => {
    if (ext.deadline <= 0 || ext.closed === 1 || now >= ext.deadline) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(ext.deadline - now + 50, TIMER_MAX_MS));
    return () => clearTimeout(timer);
  }, [ext.deadline, ext.closed, now]);

  const expired = ext.deadline > 0 && now >= ext.deadline;
  const ended = ext.closed === 1 || expired;
  const voted = ext.mine.length > 0;
  const choosing = !ended && (!voted || changing);
  const total = ext.voters;
  const mayClose = !ended && (ext.creator === me || role === 1 || role === 2);

  const vote = async (options: number[]) => {
    setBusy(true);
    try {
      const state = await api.votePoll({ id: message.msg_id, options });
      applyPollState(key, state);
      setChanging(false);
      setPicked([]);
    } catch (e) {
      // The request layer said why (ended, muted); a poll that ended meanwhile shows it ended.
      const state = stateIn(e);
      if (state) {
        applyPollState(key, state);
        if (!state.closed) setNow(Math.max(Date.now(), state.deadline));
        setChanging(false);
        setPicked([]);
      }
    } finally {
      setBusy(false);
    }
  };

  const handleClose = async () => {
    const ok = await feedback
      .confirm({
        content: t('poll.closeConfirm'),
        confirmText: t('poll.close'),
        cancelText: t('common.cancel'),
        danger: true,
      })
      .catch(() => false);
    if (!ok) return;
    try {
      applyPollState(key, await api.closePoll({ id: message.msg_id }));
    } catch {
      // The request layer said why.
    }
  };

  const cancelChange = () => {
    setChanging(false);
    setPicked([]);
  };

  // Arrow keys move between a single-choice poll's options; Enter or Space chooses one.
  const moveFocus = (e: KeyboardEvent<HTMLElement>) => {
    const step =
      e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : e.key === 'ArrowUp' || e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const radios = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="radio"]')];
    const at = radios.indexOf(document.activeElement as HTMLElement);
    radios[(at + step + radios.length) % radios.length]?.focus();
  };

  const toggle = (i: number) => setPicked((all) => (all.includes(i) ? all.filter((x) => x !== i) : [...all, i]));

  const status = ext.closed
    ? t('poll.closed')
    : expired
      ? t('poll.expired')
      : ext.deadline
        ? t('poll.until', {
            time: new Date(ext.deadline).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' }),
          })
        : '';
  const kinds = [
    ext.multiple ? t('poll.kindMultiple') : t('poll.kindSingle'),
    ...(ext.anonymous ? [t('poll.kindAnonymous')] : []),
  ].join(' · ');

  return (
    <section className="poll-card" aria-label={t('poll.label', { question: ext.question })}>
      <h3 className="poll-question" id={questionId}>
        {ext.question}
      </h3>
      <p className="poll-kind">{kinds}</p>
      {choosing && ext.multiple === 1 ? (
        <ul className="poll-options" role="group" aria-labelledby={questionId}>
          {ext.options.map((o, i) => (
            <li key={i}>
              <label className="poll-choice">
                <input type="checkbox" checked={picked.includes(i)} onChange={() => toggle(i)} disabled={busy} />
                <span>{o.text}</span>
              </label>
            </li>
          ))}
        </ul>
      ) : choosing ? (
        <div className="poll-options" role="radiogroup" aria-labelledby={questionId} onKeyDown={moveFocus}>
          {ext.options.map((o, i) => {
            const checked = picked.includes(i);
            return (
              <button
                key={i}
                type="button"
                role="radio"
                aria-checked={checked}
                tabIndex={checked || (picked.length === 0 && i === 0) ? 0 : -1}
                className={`poll-choice${checked ? ' poll-choice-current' : ''}`}
                disabled={busy}
                onClick={() => void vote([i])}
              >
                {checked && <CheckOutline className="poll-mine-mark" aria-hidden="true" />}
                {o.text}
              </button>
            );
          })}
        </div>
      ) : (
        <ul className="poll-options">
          {ext.options.map((o, i) => {
            const mine = ext.mine.includes(i);
            const share = total ? Math.round((o.count / total) * 100) : 0;
            return (
              <li
                key={i}
                className={`poll-result${mine ? ' poll-result-mine' : ''}`}
                aria-label={t(mine ? 'poll.resultMine' : 'poll.result', { text: o.text, count: o.count })}
              >
                <span className="poll-result-line" aria-hidden="true">
                  <span className="poll-result-text">
                    {mine && <CheckOutline className="poll-mine-mark" />}
                    {o.text}
                  </span>
                  <span className="poll-result-count">{t('poll.count', { count: o.count })}</span>
                </span>
                <span className="poll-bar" aria-hidden="true">
                  <span className="poll-bar-fill" style={{ width: `${share}%` }} />
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <p className="poll-foot">
        {t('poll.participants', { count: total })}
        {status && <span className="poll-status"> · {status}</span>}
      </p>
      <div className="poll-actions">
        {choosing && ext.multiple === 1 && (
          <button
            type="button"
            className="poll-action poll-action-main"
            disabled={busy || picked.length === 0}
            onClick={() => void vote([...picked].sort((a, b) => a - b))}
          >
            {t('poll.vote')}
          </button>
        )}
        {choosing && voted && (
          <button type="button" className="poll-action" disabled={busy} onClick={() => void vote([])}>
            {t('poll.withdraw')}
          </button>
        )}
        {choosing && changing && (
          <button type="button" className="poll-action" disabled={busy} onClick={cancelChange}>
            {t('poll.cancelChange')}
          </button>
        )}
        {!ended && voted && !changing && (
          <button
            type="button"
            className="poll-action"
            onClick={() => {
              setPicked(ext.mine);
              setChanging(true);
            }}
          >
            {t('poll.change')}
          </button>
        )}
        {!ext.anonymous && !choosing && total > 0 && (
          <button type="button" className="poll-action" onClick={() => setVoters(true)}>
            {t('poll.voters')}
          </button>
        )}
        {mayClose && (
          <button type="button" className="poll-action poll-action-danger" onClick={() => void handleClose()}>
            {t('poll.close')}
          </button>
        )}
      </div>
      {voters && (
        <Suspense fallback={null}>
          <PollVotersSheet message={message} onClose={() => setVoters(false)} />
        </Suspense>
      )}
    </section>
  );
}
