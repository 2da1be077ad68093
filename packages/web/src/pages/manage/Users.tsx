import type { Department, ManagedUser } from '@sparrow/protocol';
import { UserOutline } from 'antd-mobile-icons';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import { SearchBar } from '../../components/SearchBar';
import { useSession } from '../../stores/session';
import { useDepartments } from './Departments';
import type { ManageT } from './i18n';
import { usePaged } from './paged';
import { formatTime, PagedRows } from './parts';
import { UserSecurity } from './UserSecurity';

/** 新建用户: account, password, name and whether they administer. */
function CreateUser({ t, onCreated }: { t: ManageT; onCreated: () => void }) {
  const [form, setForm] = useState({ account: '', password: '', realname: '', admin: false });
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const user = await api.manageUserCreate(
        {
          account: form.account,
          password: form.password,
          realname: form.realname || form.account,
          role: form.admin ? 1 : 0,
        },
        { loading: true, quiet: true },
      );
      feedback.toast(t('users.created', { account: user.account }));
      setForm({ account: '', password: '', realname: '', admin: false });
      onCreated();
    } catch {
      // The server's message was shown.
    } finally {
      setBusy(false);
    }
  };
  const field = (name: 'account' | 'password' | 'realname', type = 'text') => (
    <label className="manage-field">
      <span>{t(`users.${name}`)}</span>
      <input
        type={type}
        name={name}
        value={form[name]}
        required={name !== 'realname'}
        minLength={name === 'password' ? 6 : name === 'account' ? 4 : undefined}
        maxLength={name === 'password' ? 16 : 32}
        autoComplete={name === 'password' ? 'new-password' : 'off'}
        onChange={(e) => setForm({ ...form, [name]: e.target.value })}
      />
    </label>
  );
  return (
    <details className="manage-panel">
      <summary>{t('users.create')}</summary>
      <form className="manage-form" onSubmit={(e) => void submit(e)}>
        {field('account')}
        {field('password', 'password')}
        {field('realname')}
        <label className="manage-check">
          <input type="checkbox" checked={form.admin} onChange={(e) => setForm({ ...form, admin: e.target.checked })} />
          <span>{t('users.asAdmin')}</span>
        </label>
        <button type="submit" className="button button-primary" disabled={busy}>
          {t('users.create')}
        </button>
      </form>
    </details>
  );
}

/** One user with what an admin may do to them; an admin's own row offers nothing that would lock them out. */
function UserRow({
  user,
  me,
  departments,
  t,
  locale,
  onChanged,
}: {
  user: ManagedUser;
  me: number;
  departments: Department[];
  t: ManageT;
  locale: string;
  onChanged: () => void;
}) {
  const [resetting, setResetting] = useState(false);
  const [security, setSecurity] = useState(false);
  const [password, setPassword] = useState('');
  const self = user.user_id === me;
  const name = user.realname || user.account;

  const act = async (run: () => Promise<unknown>, confirm?: string) => {
    if (
      confirm &&
      !(await feedback.confirm({ content: confirm, confirmText: t('common.confirm'), cancelText: t('common.cancel') }))
    )
      return;
    try {
      await run();
      feedback.toast(t('common.done'));
      onChanged();
    } catch {
      // The server's message was shown.
    }
  };
  const reset = async (e: FormEvent) => {
    e.preventDefault();
    await act(() => api.manageUserPassword({ user_id: user.user_id, password }, { loading: true, quiet: true }));
    setPassword('');
    setResetting(false);
  };

  return (
    <li className="manage-row">
      <div className="manage-row-main">
        <p className="manage-row-title">
          {name}
          {self && t('users.you')}
          {user.role === 1 && <span className="manage-tag">{t('users.roleAdmin')}</span>}
          {user.status === 0 && <span className="manage-tag manage-tag-off">{t('users.disabled')}</span>}
          {user.status === 2 && <span className="manage-tag manage-tag-off">{t('users.deletedAccount')}</span>}
        </p>
        <p className="manage-row-sub">
          {user.account} ·{' '}
          {user.last_login_time
            ? t('users.lastLogin', { time: formatTime(user.last_login_time, locale) })
            : t('users.never')}
        </p>
      </div>
      {user.status !== 2 && (
        <div className="manage-row-actions" role="group" aria-label={t('users.actions', { name })}>
          <label className="manage-field">
            <span>{t('users.department')}</span>
            <select
              value={user.dep_id}
              aria-label={t('users.departmentOf', { name })}
              onChange={(e) =>
                void act(() =>
                  api.manageUserDepartment({ user_id: user.user_id, dep_id: Number(e.target.value) }, { quiet: true }),
                )
              }
            >
              <option value={0}>{t('users.noDepartment')}</option>
              {departments.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
          {!self &&
            (user.status === 1 ? (
              <button
                type="button"
                className="button button-danger"
                onClick={() =>
                  void act(
                    () => api.manageUserStatus({ user_id: user.user_id, status: 0 }, { quiet: true }),
                    t('users.confirmDisable', { name }),
                  )
                }
              >
                {t('users.disable')}
              </button>
            ) : (
              <button
                type="button"
                className="button button-default"
                onClick={() =>
                  void act(() => api.manageUserStatus({ user_id: user.user_id, status: 1 }, { quiet: true }))
                }
              >
                {t('users.enable')}
              </button>
            ))}
          <button
            type="button"
            className="button button-default"
            aria-expanded={resetting}
            onClick={() => setResetting(!resetting)}
          >
            {t('users.resetPassword')}
          </button>
          <button
            type="button"
            className="button button-default"
            onClick={() =>
              void act(() =>
                api.manageUserRole({ user_id: user.user_id, role: user.role === 1 ? 0 : 1 }, { quiet: true }),
              )
            }
          >
            {user.role === 1 ? t('users.revokeAdmin') : t('users.makeAdmin')}
          </button>
          {!self && (
            <button
              type="button"
              className="button button-default"
              onClick={() =>
                void act(
                  () => api.manageUserLogout({ user_id: user.user_id }, { quiet: true }),
                  t('users.confirmLogout', { name }),
                )
              }
            >
              {t('users.logout')}
            </button>
          )}
          <button
            type="button"
            className="button button-default"
            aria-expanded={security}
            onClick={() => setSecurity(!security)}
          >
            {t('security.open')}
          </button>
        </div>
      )}
      {security && user.status !== 2 && <UserSecurity user={user} t={t} locale={locale} />}
      {resetting && (
        <form className="manage-form manage-inline" onSubmit={(e) => void reset(e)}>
          <label className="manage-field">
            <span>{t('users.newPassword')}</span>
            <input
              type="password"
              value={password}
              required
              minLength={6}
              maxLength={16}
              autoComplete="new-password"
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <p className="manage-hint">{t('users.passwordHint')}</p>
          <button type="submit" className="button button-primary">
            {t('users.resetPassword')}
          </button>
        </form>
      )}
    </li>
  );
}

/** 用户: search, page through, create, and act on each user. */
export function Users({ t, locale }: { t: ManageT; locale: string }) {
  const me = useSession((s) => s.user?.user_id ?? 0);
  const [typed, setTyped] = useState('');
  const [keywords, setKeywords] = useState('');
  const list = usePaged('manageUserList', { keywords });
  const departments = useDepartments();
  return (
    <>
      <SearchBar
        value={typed}
        onChange={(value) => {
          setTyped(value);
          if (!value.trim()) setKeywords('');
        }}
        onSubmit={() => setKeywords(typed.trim())}
        placeholder={t('users.searchPlaceholder')}
        label={t('common.search')}
      />
      <CreateUser t={t} onCreated={list.reload} />
      <PagedRows
        list={list}
        empty={{ icon: <UserOutline />, title: t('users.empty'), description: t('users.emptyDesc') }}
        t={t}
      >
        {list.items.map((u) => (
          <UserRow
            key={u.user_id}
            user={u}
            me={me}
            departments={departments.items}
            t={t}
            locale={locale}
            onChanged={list.reload}
          />
        ))}
      </PagedRows>
    </>
  );
}
