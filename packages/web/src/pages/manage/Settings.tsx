import type { ManagedConfig, ManagedSetting } from '@sparrow/protocol';
import { KeyOutline, SetOutline } from 'antd-mobile-icons';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import { useLoaded } from '../../lib/use-loaded';
import type { ManageKey, ManageT } from './i18n';
import { usePaged } from './paged';
import { formatTime, ListState, PagedRows } from './parts';

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 1));

/** Saves one setting: the server checks it against its rule and answers every setting as it now stands. */
function useSave(setting: ManagedSetting, t: ManageT, onSaved: (c: ManagedConfig) => void) {
  const [busy, setBusy] = useState(false);
  const save = async (value: string) => {
    setBusy(true);
    try {
      onSaved(await api.manageConfigSet({ key: setting.key, value }, { quiet: true }));
      feedback.toast(t('settings.saved'));
    } catch {
      // The server's message was shown; the field keeps what was chosen or typed.
    } finally {
      setBusy(false);
    }
  };
  return { busy, save };
}

/**
 * One setting, edited as its rule says: a switch or a choice saves at once; a number, a line of
 * text or a list is typed, then saved.
 */
function SettingRow({
  setting,
  t,
  onSaved,
}: {
  setting: ManagedSetting;
  t: ManageT;
  onSaved: (c: ManagedConfig) => void;
}) {
  const id = useId();
  const { busy, save } = useSave(setting, t, onSaved);
  const [text, setText] = useState(() => asText(setting.value));
  useEffect(() => setText(asText(setting.value)), [setting.value]);
  const { control } = setting;
  const described = { id, 'aria-describedby': `${id}-desc` };
  const head = (
    <>
      <label className="manage-setting-label" htmlFor={id}>
        {setting.label}
      </label>
      <p className="manage-setting-desc" id={`${id}-desc`}>
        {setting.description}
      </p>
    </>
  );

  if (control.kind === 'switch') {
    return (
      <li className="manage-setting manage-setting-switch">
        <div className="manage-setting-text">{head}</div>
        <input
          {...described}
          type="checkbox"
          role="switch"
          className="manage-switch"
          checked={setting.value === 1}
          disabled={busy}
          onChange={(e) => void save(e.target.checked ? '1' : '0')}
        />
      </li>
    );
  }
  if (control.kind === 'choice') {
    return (
      <li className="manage-setting manage-setting-choice">
        {head}
        <div className="manage-setting-edit">
          <select
            {...described}
            value={String(setting.value)}
            disabled={busy}
            onChange={(e) => void save(e.target.value)}
          >
            {control.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      </li>
    );
  }

  const changed = text !== asText(setting.value);
  const onChange = (e: { target: { value: string } }) => setText(e.target.value);
  return (
    <li className="manage-setting">
      <form
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          void save(text);
        }}
      >
        {head}
        <div className="manage-setting-edit">
          {control.kind === 'json' ? (
            <textarea
              {...described}
              value={text}
              onChange={onChange}
              rows={Math.min(8, text.split('\n').length)}
              spellCheck={false}
            />
          ) : control.kind === 'number' ? (
            <span className="manage-number">
              <input
                {...described}
                type="number"
                inputMode="numeric"
                min={control.min}
                max={control.max}
                step={1}
                required
                value={text}
                onChange={onChange}
              />
              {control.unit && <span className="manage-unit">{t(`settings.unit.${control.unit}`)}</span>}
            </span>
          ) : (
            <input {...described} type="text" maxLength={control.max} value={text} onChange={onChange} />
          )}
          <button type="submit" className="button button-primary" disabled={!changed || busy}>
            {t('settings.save')}
          </button>
        </div>
      </form>
    </li>
  );
}

/** 邀请码: make one, see those there are, revoke one. */
function Invites({ t, locale }: { t: ManageT; locale: string }) {
  const list = usePaged('manageInviteList', {});
  const [uses, setUses] = useState('1');
  const [days, setDays] = useState('7');
  const create = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await api.manageInviteCreate({ uses: Number(uses), days: Number(days) }, { quiet: true });
      list.reload();
    } catch {
      // The server's message was shown.
    }
  };
  const revoke = async (code: string) => {
    try {
      await api.manageInviteRevoke({ code }, { quiet: true });
      feedback.toast(t('common.done'));
      list.reload();
    } catch {
      // The server's message was shown.
    }
  };
  return (
    <section className="manage-section" aria-labelledby="manage-invites">
      <h2 className="manage-section-title" id="manage-invites">
        {t('invites.title')}
      </h2>
      <p className="manage-hint">{t('invites.hint')}</p>
      <form className="manage-form manage-inline" onSubmit={(e) => void create(e)}>
        <label className="manage-field">
          <span>{t('invites.uses')}</span>
          <input type="number" min={1} max={10000} required value={uses} onChange={(e) => setUses(e.target.value)} />
        </label>
        <label className="manage-field">
          <span>{t('invites.days')}</span>
          <input type="number" min={1} max={365} required value={days} onChange={(e) => setDays(e.target.value)} />
        </label>
        <button type="submit" className="button button-primary">
          {t('invites.create')}
        </button>
      </form>
      <PagedRows
        list={list}
        pager="several"
        empty={{ icon: <KeyOutline />, title: t('invites.empty'), description: t('invites.hint') }}
        t={t}
      >
        {list.items.map((invite) => (
          <li key={invite.code} className="manage-row">
            <div className="manage-row-main">
              <p className="manage-row-title manage-code">{invite.code}</p>
              <p className="manage-row-sub">
                {t('invites.left', { count: invite.uses_left, time: formatTime(invite.expires_at, locale) })}
              </p>
            </div>
            <div className="manage-row-actions">
              <button
                type="button"
                className="button button-default"
                aria-label={t('invites.revokeCode', { code: invite.code })}
                onClick={() => void revoke(invite.code)}
              >
                {t('invites.revoke')}
              </button>
            </div>
          </li>
        ))}
      </PagedRows>
    </section>
  );
}

/** Every setting with its rule and description, as the page opens. */
const readConfig = () => api.manageConfigGet({}, { silent: true });

/** 系统设置: every setting by section, each saved live; then the invite codes. */
export function Settings({ t, locale }: { t: ManageT; locale: string }) {
  const { data: config, setData: setConfig, status, reload: load } = useLoaded(readConfig);

  if (!config)
    return (
      <ListState
        status={status === 'error' ? 'error' : 'loading'}
        empty={{ icon: <SetOutline />, title: '', description: '' }}
        t={t}
        onRetry={() => void load()}
      />
    );
  const sections = new Map<string, ManagedSetting[]>();
  for (const s of config.settings) {
    const section = s.key.split('.')[0]!;
    sections.set(section, [...(sections.get(section) ?? []), s]);
  }
  return (
    <>
      <p className="manage-hint">{t('settings.intro')}</p>
      {[...sections].map(([section, settings]) => (
        <section key={section} className="manage-section" aria-labelledby={`manage-section-${section}`}>
          <h2 className="manage-section-title" id={`manage-section-${section}`}>
            {t(`settings.section.${section}` as ManageKey)}
          </h2>
          <ul className="manage-settings">
            {settings.map((s) => (
              <SettingRow key={s.key} setting={s} t={t} onSaved={setConfig} />
            ))}
          </ul>
        </section>
      ))}
      <Invites t={t} locale={locale} />
    </>
  );
}
