import { AUDIT_ACTIONS, type AuditRow } from '@sparrow/protocol';
import { FileOutline } from 'antd-mobile-icons';
import { useEffect, useId, useState } from 'react';
import { useSession } from '../../stores/session';
import { auditWords } from './audit-text';
import type { ManageT } from './i18n';
import { usePaged } from './paged';
import { formatTime, PagedRows } from './parts';

/** The admin filter's value: '' anyone, else an admin's user id (0 the server's command line). */
type AdminChoice = string;

/** One row: what was done to what, and who did it, when, from where. */
function AuditItem({ row, t, locale, me }: { row: AuditRow; t: ManageT; locale: string; me: number }) {
  const words = auditWords(row, t, me);
  return (
    <li className="manage-row manage-audit-row">
      <div className="manage-row-main">
        <p className="manage-row-title">
          {words.what} · <span className="manage-audit-target">{words.target}</span>
        </p>
        {words.change && <p className="manage-row-sub">{words.change}</p>}
      </div>
      <dl className="manage-audit-meta">
        <div>
          <dt>{t('audit.who')}</dt>
          <dd>{words.who}</dd>
        </div>
        <div>
          <dt>{t('audit.when')}</dt>
          <dd>
            <time dateTime={new Date(row.create_time).toISOString()}>{formatTime(row.create_time, locale)}</time>
          </dd>
        </div>
        <div>
          <dt>{t('audit.where')}</dt>
          <dd>{words.where}</dd>
        </div>
      </dl>
    </li>
  );
}

/**
 * 审计日志: every change admins made, newest first, a page at a time, of one admin or one action.
 * The admins offered are the reader, the command line and whoever the log has shown so far.
 */
export function Audit({ t, locale }: { t: ManageT; locale: string }) {
  const me = useSession((s) => s.user?.user_id ?? 0);
  const myName = useSession((s) => s.user?.realname ?? '');
  const [admin, setAdmin] = useState<AdminChoice>('');
  const [action, setAction] = useState('');
  const list = usePaged('manageAuditList', {
    ...(admin !== '' && { admin_id: Number(admin) }),
    ...(action && { action }),
  });
  const [seen, setSeen] = useState<ReadonlyMap<number, string>>(new Map());
  // Each select named by its own label alone: a label around it would add the chosen option to its name.
  const id = useId();

  useEffect(() => {
    const known = list.items.filter((r) => r.admin_id !== 0 && r.admin_id !== me && !seen.has(r.admin_id));
    if (known.length)
      setSeen(
        (prev) => new Map([...prev, ...known.map((r) => [r.admin_id, r.admin_name || `#${r.admin_id}`] as const)]),
      );
  }, [list.items, me, seen]);

  const others = [...seen].sort((a, b) => a[1].localeCompare(b[1], locale));
  return (
    <>
      <p className="manage-hint">{t('audit.readOnly')}</p>
      <form className="manage-filters" aria-label={t('audit.filters')} onSubmit={(e) => e.preventDefault()}>
        <div className="manage-field">
          <label htmlFor={`${id}-admin`}>{t('audit.admin')}</label>
          <select id={`${id}-admin`} value={admin} onChange={(e) => setAdmin(e.target.value)}>
            <option value="">{t('audit.anyAdmin')}</option>
            <option value={String(me)}>
              {t('audit.me')}
              {myName && ` · ${myName}`}
            </option>
            <option value="0">{t('dashboard.commandLine')}</option>
            {others.map(([adminId, name]) => (
              <option key={adminId} value={String(adminId)}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="manage-field">
          <label htmlFor={`${id}-action`}>{t('audit.action')}</label>
          <select id={`${id}-action`} value={action} onChange={(e) => setAction(e.target.value)}>
            <option value="">{t('audit.anyAction')}</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {t(`actions.${a}`)}
              </option>
            ))}
          </select>
        </div>
      </form>
      <PagedRows
        list={list}
        empty={{ icon: <FileOutline />, title: t('audit.empty'), description: t('audit.emptyDesc') }}
        t={t}
      >
        {list.items.map((row) => (
          <AuditItem key={row.id} row={row} t={t} locale={locale} me={me} />
        ))}
      </PagedRows>
    </>
  );
}
