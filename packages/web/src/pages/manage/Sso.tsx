import type { ManagedSsoProvider } from '@sparrow/protocol';
import { KeyOutline } from 'antd-mobile-icons';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import type { ManageT } from './i18n';
import { useWhole } from './paged';
import { ListState } from './parts';

interface Draft {
  id: string;
  label: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  scopes: string;
  create_accounts: boolean;
  link_email: boolean;
  admin_claim: string;
  admin_value: string;
  enabled: boolean;
}

const EMPTY: Draft = {
  id: '',
  label: '',
  issuer: '',
  client_id: '',
  client_secret: '',
  scopes: 'openid email profile',
  create_accounts: true,
  link_email: false,
  admin_claim: '',
  admin_value: '',
  enabled: true,
};

const draftOf = (p: ManagedSsoProvider): Draft => ({
  ...p,
  client_secret: '',
  create_accounts: p.create_accounts === 1,
  link_email: p.link_email === 1,
  enabled: p.enabled === 1,
});

type TextField = 'id' | 'label' | 'issuer' | 'client_id' | 'client_secret' | 'scopes' | 'admin_claim' | 'admin_value';
type Flag = 'create_accounts' | 'link_email' | 'enabled';

/**
 * 单点登录: the OpenID Connect providers the login page offers. The client secret is write-only:
 * the console is told only whether one is stored, and a save without one keeps it.
 */
export function Sso({ t }: { t: ManageT; locale: string }) {
  const list = useWhole('manageSsoList');
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [editing, setEditing] = useState<ManagedSsoProvider | null>(null);
  const [busy, setBusy] = useState(false);

  const text = (name: TextField, extra: { type?: string; required?: boolean; placeholder?: string } = {}) => (
    <label className="manage-field">
      <span>{t(`sso.field.${name}`)}</span>
      <input
        type={extra.type ?? 'text'}
        value={draft[name]}
        required={extra.required}
        placeholder={extra.placeholder}
        readOnly={name === 'id' && editing !== null}
        autoComplete="off"
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
      />
    </label>
  );
  const flag = (name: Flag) => (
    <label className="manage-check">
      <input type="checkbox" checked={draft[name]} onChange={(e) => setDraft({ ...draft, [name]: e.target.checked })} />
      <span>{t(`sso.field.${name}`)}</span>
    </label>
  );

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const { client_secret, create_accounts, link_email, enabled, ...rest } = draft;
      await api.manageSsoSave(
        {
          ...rest,
          ...(client_secret && { client_secret }),
          create_accounts: create_accounts ? 1 : 0,
          link_email: link_email ? 1 : 0,
          enabled: enabled ? 1 : 0,
        },
        { loading: true, quiet: true },
      );
      feedback.toast(t('sso.saved', { label: draft.label }));
      setDraft(EMPTY);
      setEditing(null);
      list.reload();
    } catch {
      // The server's message was shown.
    } finally {
      setBusy(false);
    }
  };

  const remove = async (p: ManagedSsoProvider) => {
    const ok = await feedback.confirm({
      content: t('sso.confirmDelete', { label: p.label }),
      confirmText: t('sso.delete'),
      danger: true,
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    try {
      await api.manageSsoDel({ id: p.id }, { quiet: true });
      feedback.toast(t('common.done'));
      list.reload();
    } catch {
      // The server's message was shown.
    }
  };

  return (
    <>
      <section className="manage-section" aria-labelledby="manage-sso-form">
        <h2 className="manage-section-title" id="manage-sso-form">
          {editing ? t('sso.edit', { label: editing.label }) : t('sso.add')}
        </h2>
        <p className="manage-hint">{t('sso.intro')}</p>
        <form className="manage-form" onSubmit={(e) => void save(e)}>
          {text('id', { required: true, placeholder: 'corp' })}
          {text('label', { required: true })}
          {text('issuer', { type: 'url', required: true, placeholder: 'https://' })}
          {text('client_id', { required: true })}
          {text('client_secret', {
            type: 'password',
            placeholder: editing?.has_secret ? t('sso.secretKept') : '',
          })}
          {text('scopes')}
          {flag('create_accounts')}
          {flag('link_email')}
          {text('admin_claim', { placeholder: 'groups' })}
          {text('admin_value')}
          {flag('enabled')}
          <button type="submit" className="button button-primary" disabled={busy}>
            {t('sso.save')}
          </button>
          {editing && (
            <button
              type="button"
              className="button button-default"
              onClick={() => {
                setEditing(null);
                setDraft(EMPTY);
              }}
            >
              {t('common.cancel')}
            </button>
          )}
        </form>
      </section>
      <section className="manage-section" aria-labelledby="manage-sso-list">
        <h2 className="manage-section-title" id="manage-sso-list">
          {t('sso.list')}
        </h2>
        {list.status === 'ready' && list.items.length > 0 ? (
          <ul className="manage-list">
            {list.items.map((p) => (
              <li className="manage-row" key={p.id}>
                <div className="manage-row-main">
                  <p className="manage-row-title">
                    {p.label} · {p.id}
                    {!p.enabled && <span className="manage-tag manage-tag-off">{t('sso.off')}</span>}
                  </p>
                  <p className="manage-row-sub">{p.issuer}</p>
                  <p className="manage-row-sub">
                    {t('sso.redirect')}: <code className="manage-code">{p.redirect_uri}</code>
                  </p>
                </div>
                <div className="manage-row-actions">
                  <button
                    type="button"
                    className="button button-link"
                    aria-label={t('sso.editNamed', { label: p.label })}
                    onClick={() => {
                      setEditing(p);
                      setDraft(draftOf(p));
                    }}
                  >
                    {t('sso.editShort')}
                  </button>
                  <button
                    type="button"
                    className="button button-link"
                    aria-label={t('sso.deleteNamed', { label: p.label })}
                    onClick={() => void remove(p)}
                  >
                    {t('sso.delete')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <ListState
            status={list.status === 'ready' ? 'empty' : list.status}
            empty={{ icon: <KeyOutline />, title: t('sso.empty'), description: t('sso.emptyDesc') }}
            t={t}
            onRetry={list.reload}
          />
        )}
      </section>
    </>
  );
}
