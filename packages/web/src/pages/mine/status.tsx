import { endOfDay, liveStatus, STATUS_EMOJI_PRESETS, STATUS_TEXT_MAX, withinGraphemes } from '@sparrow/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { OptionList } from '../../components/Cell';
import { Field } from '../../components/Field';
import { feedback } from '../../components/feedback';
import { Page } from '../../components/Page';
import { StatusLine } from '../../components/presence/presence';
import { useNow } from '../../lib/use-now';
import { useBackTo } from '../../nav/navigation';
import { paths } from '../../nav/paths';
import { session, useSession } from '../../stores/session';
import './status.css';

const EXPIRIES = ['never', 'hour', 'today', 'custom'] as const;
type Expiry = (typeof EXPIRIES)[number];
const EXPIRY_LABELS = {
  never: 'presence.untilNever',
  hour: 'presence.untilHour',
  today: 'presence.untilToday',
  custom: 'presence.untilCustom',
} as const;
const NONE = '';

const pad = (n: number) => String(n).padStart(2, '0');
/** A time as a `datetime-local` input holds it, in local time. */
const localInput = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** When a choice of expiry ends, ms; null for none, NaN for a custom time not given. */
function untilOf(expiry: Expiry, custom: string, now: number): number | null {
  if (expiry === 'never') return null;
  if (expiry === 'hour') return now + 3_600_000;
  if (expiry === 'today') return endOfDay(now);
  return custom ? new Date(custom).getTime() : Number.NaN;
}

/** 状态 (Me → 状态): a short text, one of a few emoji or none, and when it ends; or clearing it. */
export default function StatusPage() {
  const { t } = useTranslation();
  const back = useBackTo(paths.home);
  const now = useNow();
  const current = useSession((s) => liveStatus(s.user?.status, now));
  const [text, setText] = useState(current?.text ?? '');
  const [emoji, setEmoji] = useState<string>(current?.emoji ?? NONE);
  const [expiry, setExpiry] = useState<Expiry>(current?.until ? 'custom' : 'never');
  const [custom, setCustom] = useState(current?.until ? localInput(current.until) : '');
  const [busy, setBusy] = useState(false);

  const until = untilOf(expiry, custom, now);
  const tooLong = !withinGraphemes(text.trim(), STATUS_TEXT_MAX);
  const empty = text.trim() === '' && emoji === NONE;
  const emojiOptions = [NONE, ...STATUS_EMOJI_PRESETS];

  const handleSave = async () => {
    setBusy(true);
    try {
      const ends = untilOf(expiry, custom, Date.now());
      const user = await api.setStatus({ text: text.trim(), emoji, ...(ends !== null && { until: ends }) });
      session.setUser(user);
      feedback.toast(t('presence.saved'));
      back();
    } catch {
      // The request layer said why.
    } finally {
      setBusy(false);
    }
  };

  const handleClear = async () => {
    setBusy(true);
    try {
      session.setUser(await api.setStatus({ text: '', emoji: '' }));
      setText('');
      setEmoji(NONE);
      setExpiry('never');
      feedback.toast(t('presence.cleared'));
    } catch {
      // The request layer said why.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={t('presence.statusTitle')} onBack={back}>
      <form
        className="status-form"
        onSubmit={(e) => {
          e.preventDefault();
          void handleSave();
        }}
      >
        <div className="form cell-group">
          <Field
            label={t('presence.text')}
            value={text}
            onChange={setText}
            placeholder={t('presence.textPlaceholder')}
            hint={t('presence.textLimit', { max: STATUS_TEXT_MAX })}
            error={tooLong ? t('presence.textLimit', { max: STATUS_TEXT_MAX }) : null}
          />
        </div>
        <fieldset className="status-emoji">
          <legend>{t('presence.emoji')}</legend>
          <div className="status-emoji-grid">
            {emojiOptions.map((option) => (
              <label key={option || 'none'} className="status-emoji-option">
                <input
                  type="radio"
                  name="status-emoji"
                  value={option}
                  checked={emoji === option}
                  onChange={() => setEmoji(option)}
                />
                <span aria-hidden={option !== NONE}>{option || t('presence.emojiNone')}</span>
                {option !== NONE && <span className="visually-hidden">{option}</span>}
              </label>
            ))}
          </div>
        </fieldset>
        <OptionList
          legend={t('presence.until')}
          legendClassName="cell-group-title"
          name="status-until"
          options={EXPIRIES}
          value={expiry}
          label={(choice: Expiry) => t(EXPIRY_LABELS[choice])}
          onChange={(choice: Expiry) => {
            setExpiry(choice);
            if (choice === 'custom' && !custom) setCustom(localInput(Date.now() + 3_600_000));
          }}
        />
        {expiry === 'custom' && (
          <div className="form cell-group">
            <Field
              label={t('presence.customTime')}
              type="datetime-local"
              value={custom}
              min={localInput(now)}
              onChange={setCustom}
            />
          </div>
        )}
        {!empty && (
          <p className="status-preview">
            <span>{t('presence.preview')}</span>
            <StatusLine
              status={{ text: text.trim(), emoji, until: Number.isNaN(until) ? null : until }}
              now={now}
              withUntil
            />
          </p>
        )}
        <div className="actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={busy || empty || tooLong || (until !== null && Number.isNaN(until))}
          >
            {t('presence.save')}
          </button>
          {current && (
            <button type="button" className="button button-default" disabled={busy} onClick={() => void handleClear()}>
              {t('presence.clear')}
            </button>
          )}
        </div>
        {empty && <p className="form-note">{t('presence.empty')}</p>}
      </form>
    </Page>
  );
}
