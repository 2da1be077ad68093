import type { Department } from '@sparrow/protocol';
import { TeamOutline } from 'antd-mobile-icons';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import type { ManageT } from './i18n';
import { useWhole } from './paged';
import { ListState, RenameDeleteActions } from './parts';

/** Every department (one short list, not paged), asked again on `reload`. */
export const useDepartments = () => useWhole('manageDepartmentList');

const NAME_MAX = 64;

/** One department: its name, where it sits, how many people; rename in place, delete when empty. */
function DepartmentRow({
  dep,
  parent,
  t,
  onChanged,
}: {
  dep: Department;
  parent: string | undefined;
  t: ManageT;
  onChanged: () => void;
}) {
  return (
    <li className="manage-row">
      <div className="manage-row-main">
        <p className="manage-row-title">{dep.name}</p>
        <p className="manage-row-sub">
          {t('departments.people', { count: dep.user_count })}
          {parent !== undefined && ` · ${t('departments.inside', { name: parent })}`}
        </p>
      </div>
      <RenameDeleteActions
        texts="departments"
        name={dep.name}
        maxLength={NAME_MAX}
        confirmDelete={t('departments.confirmDelete', { name: dep.name })}
        rename={(name) => api.manageDepartmentRename({ id: dep.id, name }, { loading: true, quiet: true })}
        remove={() => api.manageDepartmentDel({ id: dep.id }, { quiet: true })}
        onChanged={onChanged}
        t={t}
      />
    </li>
  );
}

/** 部门: create departments (at the top or inside another), rename them, delete the empty ones. */
export function Departments({ t }: { t: ManageT; locale: string }) {
  const list = useDepartments();
  const [name, setName] = useState('');
  const [parentId, setParentId] = useState(0);
  const [busy, setBusy] = useState(false);
  const names = new Map(list.items.map((d) => [d.id, d.name]));

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const dep = await api.manageDepartmentCreate({ name, parent_id: parentId }, { loading: true, quiet: true });
      feedback.toast(t('departments.created', { name: dep.name }));
      setName('');
      list.reload();
    } catch {
      // The server's message was shown.
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <section className="manage-section" aria-labelledby="manage-dep-create">
        <h2 className="manage-section-title" id="manage-dep-create">
          {t('departments.create')}
        </h2>
        <form className="manage-form" onSubmit={(e) => void create(e)}>
          <label className="manage-field">
            <span>{t('departments.name')}</span>
            <input value={name} required maxLength={NAME_MAX} onChange={(e) => setName(e.target.value)} />
          </label>
          <label className="manage-field">
            <span>{t('departments.parent')}</span>
            <select value={parentId} onChange={(e) => setParentId(Number(e.target.value))}>
              <option value={0}>{t('departments.top')}</option>
              {list.items.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button button-primary" disabled={busy}>
            {t('departments.create')}
          </button>
        </form>
      </section>
      <section className="manage-section" aria-labelledby="manage-dep-list">
        <h2 className="manage-section-title" id="manage-dep-list">
          {t('departments.list')}
        </h2>
        {list.status === 'ready' && list.items.length > 0 ? (
          <ul className="manage-list">
            {list.items.map((d) => (
              <DepartmentRow
                key={`${d.id}:${d.name}`}
                dep={d}
                parent={d.parent_id ? names.get(d.parent_id) : undefined}
                t={t}
                onChanged={list.reload}
              />
            ))}
          </ul>
        ) : (
          <ListState
            status={list.status === 'ready' ? 'empty' : list.status}
            empty={{ icon: <TeamOutline />, title: t('departments.empty'), description: t('departments.emptyDesc') }}
            t={t}
            onRetry={list.reload}
          />
        )}
      </section>
    </>
  );
}
