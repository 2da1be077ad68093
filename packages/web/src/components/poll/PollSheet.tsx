import {
  POLL_OPTION_MAX,
  POLL_OPTIONS_MAX,
  POLL_OPTIONS_MIN,
  POLL_QUESTION_MAX,
  pollDeadlineMax,
  type ContactId,
} from '@sparrow/protocol';
import { AddOutline, MinusCircleOutline } from 'antd-mobile-icons';
import { useId, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { randomUuid } from '../../lib/ids';
import { feedback } from '../feedback';
import { Sheet } from '../Sheet';
import './poll.css';

type DeadlineChoice = 'none' | 'hour' | 'day' | 'custom';

const HOUR_MS = 3_600_000;

/** A `datetime-local` value for `ms` in this browser's time zone. */
function localInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/** The deadline a choice stands for, ms; 0 for none, NaN when a custom one is not a time. */
function deadlineOf(choice: DeadlineChoice, custom: string, now: number): number {
  if (choice === 'none') return 0;
  if (choice === 'hour') return now + HOUR_MS;
  if (choice === 'day') return now + 24 * HOUR_MS;
  return custom ? new Date(custom).getTime() : Number.NaN;
}

/**
 * 发起投票: the question, its options (added and removed, POLL_OPTIONS_MIN to POLL_OPTIONS_MAX),
 * 多选, 匿名 and a deadline (none, an hour, a day, or a time picked); sent to the group as a poll.
 */
export function PollSheet({ toContactId, onClose }: { toContactId: ContactId; onClose: () => void }) {
  const { t } = useTranslation();
  const ids = useId();
  const [question, setQuestion] = useState('');
  const [options, setOptions] = useState<string[]>(['', '']);
  const [multiple, setMultiple] = useState(false);
  const [anonymous, setAnonymous] = useState(false);
  const [deadline, setDeadline] = useState<DeadlineChoice>('none');
  const [custom, setCustom] = useState(() => localInput(Date.now() + 24 * HOUR_MS));
  const [busy, setBusy] = useState(false);
  // One id for this sheet's poll: a second tap after a lost answer is answered with the same message.
  const [id] = useState(randomUuid);

  const filled = options.map((o) => o.trim()).filter(Boolean);
  const ready = question.trim() !== '' && filled.length >= POLL_OPTIONS_MIN && !busy;

  const setOption = (i: number, text: string) => setOptions((all) => all.map((o, j) => (j === i ? text : o)));

  const handleSubmit = async () => {
    const now = Date.now();
    const at = deadlineOf(deadline, custom, now);
    if (new Set(filled).size !== filled.length) return feedback.toast(t('poll.optionsRepeat'));
    if (Number.isNaN(at) || (at !== 0 && (at <= now || at > pollDeadlineMax(now))))
      return feedback.toast(t('poll.deadlinePast'));
    setBusy(true);
    try {
      await api.createPoll({
        id,
        toContactId: String(toContactId),
        question: question.trim(),
        options: filled,
        multiple: multiple ? 1 : 0,
        anonymous: anonymous ? 1 : 0,
        deadline: at,
      });
      onClose();
    } catch {
      // The request layer said why.
    } finally {
      setBusy(false);
    }
  };

  const choices: DeadlineChoice[] = ['none', 'hour', 'day', 'custom'];

  return createPortal(
    <Sheet title={t('poll.create')} onClose={onClose}>
      <form
        className="poll-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) void handleSubmit();
        }}
      >
        <label className="poll-field">
          <span className="poll-field-label">{t('poll.question')}</span>
          <input
            className="poll-input"
            value={question}
            maxLength={POLL_QUESTION_MAX * 2}
            placeholder={t('poll.questionPlaceholder')}
            onChange={(e) => setQuestion(e.target.value)}
          />
        </label>
        <fieldset className="poll-options-edit">
          <legend className="poll-field-label">{t('poll.options')}</legend>
          {options.map((o, i) => (
            <div key={i} className="poll-option-edit">
              <input
                className="poll-input"
                value={o}
                maxLength={POLL_OPTION_MAX * 2}
                aria-label={t('poll.option', { n: i + 1 })}
                placeholder={t('poll.option', { n: i + 1 })}
                onChange={(e) => setOption(i, e.target.value)}
              />
              {options.length > POLL_OPTIONS_MIN && (
                <button
                  type="button"
                  className="poll-icon-button"
                  aria-label={t('poll.removeOption', { n: i + 1 })}
                  onClick={() => setOptions((all) => all.filter((_, j) => j !== i))}
                >
                  <MinusCircleOutline aria-hidden="true" />
                </button>
              )}
            </div>
          ))}
          {options.length < POLL_OPTIONS_MAX && (
            <button type="button" className="poll-add" onClick={() => setOptions((all) => [...all, ''])}>
              <AddOutline aria-hidden="true" /> {t('poll.addOption')}
            </button>
          )}
        </fieldset>
        <label className="poll-switch">
          <span>{t('poll.multiple')}</span>
          <input type="checkbox" role="switch" checked={multiple} onChange={(e) => setMultiple(e.target.checked)} />
        </label>
        <label className="poll-switch">
          <span>{t('poll.anonymous')}</span>
          <input type="checkbox" role="switch" checked={anonymous} onChange={(e) => setAnonymous(e.target.checked)} />
        </label>
        <fieldset className="poll-deadline">
          <legend className="poll-field-label">{t('poll.deadline')}</legend>
          <div className="poll-deadline-choices">
            {choices.map((c) => (
              <label key={c} className={`poll-chip${deadline === c ? ' poll-chip-on' : ''}`}>
                <input
                  type="radio"
                  name={`${ids}-deadline`}
                  value={c}
                  checked={deadline === c}
                  onChange={() => setDeadline(c)}
                />
                {t(`poll.deadline_${c}`)}
              </label>
            ))}
          </div>
          {deadline === 'custom' && (
            <input
              type="datetime-local"
              className="poll-input"
              aria-label={t('poll.deadlineAt')}
              value={custom}
              onChange={(e) => setCustom(e.target.value)}
            />
          )}
        </fieldset>
        <button type="submit" className="poll-submit" disabled={!ready}>
          {t('poll.submit')}
        </button>
      </form>
    </Sheet>,
    document.body,
  );
}

export default PollSheet;
