import { LDAP_CA_MAX, type ManagedLdap, type RouteBody } from '@sparrow/protocol';
import { TeamOutline } from 'antd-mobile-icons';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import { useLoaded } from '../../lib/use-loaded';
import type { ManageT } from './i18n';
import { ListState } from './parts';

type Form = Omit<ManagedLdap, 'bindPasswordSet'>;

/** The setting as the page opens. */
const readLdap = () => api.manageLdapGet({}, { silent: true });

/** The attributes that tie a control to its label and hint. */
type Tied = { id: string; 'aria-describedby'?: string };

/** A field of the form: its label, the control (given the attributes tying it to both) and a hint under it. */
function Field({ label, hint, children }: { label: string; hint?: string; children: (tied: Tied) => ReactNode }) {
  const id = useId();
  return (
    <div className="manage-field">
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(hint && { 'aria-describedby': `${id}-hint` }) })}
      {hint && (
        <small className="manage-setting-desc" id={`${id}-hint`}>
          {hint}
        </small>
      )}
    </div>
  );
}

/** An on/off choice of the form. */
function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="manage-check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/**
 * 目录 (LDAP / Active Directory): where the directory is, how a person's entry is found, which
 * attributes hold the name, e-mail and department, and which entries are disabled. The service
 * account's password is write-only: the page says whether one is stored, never what it is.
 */
export function Directory({ t }: { t: ManageT; locale: string }) {
  const { data, setData, status, reload } = useLoaded(readLdap);
  const [form, setForm] = useState<Form | null>(null);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!data) return;
    const { bindPasswordSet: _set, ...rest } = data;
    setForm(rest);
  }, [data]);

  if (!data || !form)
    return (
      <ListState
        status={status === 'error' ? 'error' : 'loading'}
        empty={{ icon: <TeamOutline />, title: '', description: '' }}
        t={t}
        onRetry={() => void reload()}
      />
    );

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm({ ...form, [key]: value });
  const text = (key: keyof Form) => ({
    value: String(form[key]),
    onChange: (e: { target: { value: string } }) => set(key, e.target.value as never),
    spellCheck: false,
    autoCapitalize: 'off',
  });
  const save = async (body: RouteBody<'manageLdapSet'>) => {
    setBusy(true);
    try {
      setData(await api.manageLdapSet(body, { quiet: true }));
      setPassword('');
      feedback.toast(t('settings.saved'));
    } catch {
      // The server's message was shown; the form keeps what was typed.
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save({ ...form, ...(password && { bindPassword: password }) });
  };
  const removePassword = () => void save({ ...form, bindPassword: '' });
  const search = form.mode === 'search';

  return (
    <section className="manage-section" aria-labelledby="manage-ldap">
      <h2 className="manage-section-title" id="manage-ldap">
        {t('ldap.title')}
      </h2>
      <p className="manage-hint">{t('ldap.intro')}</p>
      <form className="manage-form" onSubmit={submit}>
        <Toggle label={t('ldap.enabled')} checked={form.enabled === 1} onChange={(on) => set('enabled', on ? 1 : 0)} />
        <Field label={t('ldap.url')} hint={t('ldap.urlHint')}>
          {(tied) => (
            <input {...tied} {...text('url')} type="url" inputMode="url" placeholder="ldaps://ldap.example.org" />
          )}
        </Field>
        <Field label={t('ldap.mode')}>
          {(tied) => (
            <select {...tied} value={form.mode} onChange={(e) => set('mode', e.target.value as Form['mode'])}>
              <option value="search">{t('ldap.modeSearch')}</option>
              <option value="direct">{t('ldap.modeDirect')}</option>
            </select>
          )}
        </Field>
        {search ? (
          <>
            <Field label={t('ldap.bindDn')}>
              {(tied) => <input {...tied} {...text('bindDn')} placeholder="cn=reader,dc=example,dc=org" />}
            </Field>
            <Field
              label={t('ldap.bindPassword')}
              hint={data.bindPasswordSet ? t('ldap.passwordStored') : t('ldap.passwordNone')}
            >
              {(tied) => (
                <input
                  {...tied}
                  type="password"
                  autoComplete="new-password"
                  value={password}
                  maxLength={256}
                  onChange={(e) => setPassword(e.target.value)}
                />
              )}
            </Field>
            {data.bindPasswordSet && (
              <button type="button" className="button button-default" disabled={busy} onClick={removePassword}>
                {t('ldap.removePassword')}
              </button>
            )}
            <Field label={t('ldap.baseDn')}>
              {(tied) => <input {...tied} {...text('baseDn')} placeholder="ou=people,dc=example,dc=org" />}
            </Field>
            <Field label={t('ldap.userFilter')} hint={t('ldap.userFilterHint')}>
              {(tied) => <input {...tied} {...text('userFilter')} placeholder="(uid={account})" />}
            </Field>
          </>
        ) : (
          <Field label={t('ldap.userDn')} hint={t('ldap.userDnHint')}>
            {(tied) => <input {...tied} {...text('userDn')} placeholder="uid={account},ou=people,dc=example,dc=org" />}
          </Field>
        )}
        <Toggle
          label={t('ldap.startTls')}
          checked={form.startTls === 1}
          onChange={(on) => set('startTls', on ? 1 : 0)}
        />
        <Toggle
          label={t('ldap.rejectUnauthorized')}
          checked={form.rejectUnauthorized === 1}
          onChange={(on) => set('rejectUnauthorized', on ? 1 : 0)}
        />
        <Field label={t('ldap.caCert')} hint={t('ldap.caCertHint')}>
          {(tied) => (
            <textarea
              {...tied}
              {...text('caCert')}
              rows={3}
              maxLength={LDAP_CA_MAX}
              placeholder="-----BEGIN CERTIFICATE-----"
            />
          )}
        </Field>
        <Field label={t('ldap.nameAttr')}>
          {(tied) => <input {...tied} {...text('nameAttr')} placeholder="displayName" />}
        </Field>
        <Field label={t('ldap.emailAttr')}>
          {(tied) => <input {...tied} {...text('emailAttr')} placeholder="mail" />}
        </Field>
        <Field label={t('ldap.departmentAttr')}>
          {(tied) => <input {...tied} {...text('departmentAttr')} placeholder="departmentNumber" />}
        </Field>
        <Field label={t('ldap.disabledFilter')} hint={t('ldap.disabledFilterHint')}>
          {(tied) => <input {...tied} {...text('disabledFilter')} placeholder="(employeeType=disabled)" />}
        </Field>
        <Toggle
          label={t('ldap.createUsers')}
          checked={form.createUsers === 1}
          onChange={(on) => set('createUsers', on ? 1 : 0)}
        />
        <Field label={t('ldap.timeout')}>
          {(tied) => (
            <input
              {...tied}
              type="number"
              inputMode="numeric"
              min={1}
              max={60}
              step={1}
              required
              value={form.timeoutS}
              onChange={(e) => set('timeoutS', Number(e.target.value))}
            />
          )}
        </Field>
        <button type="submit" className="button button-primary" disabled={busy}>
          {t('ldap.save')}
        </button>
      </form>
    </section>
  );
}
