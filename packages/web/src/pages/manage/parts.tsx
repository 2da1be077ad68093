import { CloseCircleOutline } from 'antd-mobile-icons';
import { useState, type ReactNode } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { feedback } from '../../components/feedback';
import type { ManageT } from './i18n';
import type { LoadStatus } from './paged';

/** What a list shows when it has none of its rows: its icon, title and description. */
type Empty = { icon: ReactNode; title: string; description: string };

/** A list's state when it has nothing to show: loading, failed (with a retry) or empty. */
export function ListState({
  status,
  empty,
  t,
  onRetry,
}: {
  status: 'loading' | 'error' | 'empty';
  empty: Empty;
  t: ManageT;
  onRetry: () => void;
}) {
  if (status === 'loading')
    return (
      <p className="manage-status" role="status">
        {t('common.loading')}
      </p>
    );
  if (status === 'error')
    return (
      <EmptyState icon={<CloseCircleOutline />} title={t('common.failed')} description={t('common.failedDesc')}>
        <button type="button" className="button button-primary" onClick={onRetry}>
          {t('common.retry')}
        </button>
      </EmptyState>
    );
  return <EmptyState {...empty} />;
}

/** One page of a console list as `usePaged` reads it. */
interface PagedState {
  items: readonly unknown[];
  status: LoadStatus;
  page: number;
  pages: number;
  count: number;
  setPage: (page: number) => void;
  reload: () => void;
}

/**
 * A paged console list: its rows (`children`, each a `manage-row`) and the pager, or its state while
 * it has none to show. `pager="several"` shows the pager only past one page (a list inside a row);
 * `keep` keeps the rows on screen while the list is read again (a filter being typed).
 */
export function PagedRows({
  list,
  empty,
  t,
  label,
  pager = 'always',
  keep = false,
  children,
}: {
  list: PagedState;
  empty: Empty;
  t: ManageT;
  label?: string;
  pager?: 'always' | 'several';
  keep?: boolean;
  children: ReactNode;
}) {
  if (list.items.length === 0 || (list.status !== 'ready' && !keep))
    return (
      <ListState status={list.status === 'ready' ? 'empty' : list.status} empty={empty} t={t} onRetry={list.reload} />
    );
  return (
    <>
      <ul className="manage-list" aria-label={label}>
        {children}
      </ul>
      {(pager === 'always' || list.pages > 1) && (
        <Pager page={list.page} pages={list.pages} count={list.count} onPage={list.setPage} t={t} />
      )}
    </>
  );
}

/**
 * The end of a named row's actions, 重命名 and 删除 (after the row's own, `children`), and under them
 * while renaming, the name's field and 保存. Each says 已完成 and calls `onChanged` once the server
 * agreed; a deletion is confirmed first.
 */
export function RenameDeleteActions({
  texts,
  name,
  maxLength,
  confirmDelete,
  rename,
  remove,
  onChanged,
  t,
  children,
}: {
  /** Whose texts: `<texts>.rename`, `.renameTitle`, `.delete`, `.deleteTitle`, `.name`, `.save`. */
  texts: 'departments' | 'keywords';
  name: string;
  maxLength: number;
  confirmDelete: string;
  rename: (name: string) => Promise<unknown>;
  remove: () => Promise<unknown>;
  onChanged: () => void;
  t: ManageT;
  children?: ReactNode;
}) {
  const [renaming, setRenaming] = useState(false);
  const [value, setValue] = useState(name);
  const save = async () => {
    try {
      await rename(value);
      feedback.toast(t('common.done'));
      setRenaming(false);
      onChanged();
    } catch {
      // The server's message was shown.
    }
  };
  const del = async () => {
    const ok = await feedback.confirm({
      content: confirmDelete,
      confirmText: t(`${texts}.delete`),
      danger: true,
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    try {
      await remove();
      feedback.toast(t('common.done'));
      onChanged();
    } catch {
      // The server's message was shown (a department with people or departments in it, say).
    }
  };
  return (
    <>
      <div className="manage-row-actions">
        {children}
        <button
          type="button"
          className="button button-default"
          aria-expanded={renaming}
          aria-label={t(`${texts}.renameTitle`, { name })}
          onClick={() => setRenaming(!renaming)}
        >
          {t(`${texts}.rename`)}
        </button>
        <button
          type="button"
          className="button button-danger"
          aria-label={t(`${texts}.deleteTitle`, { name })}
          onClick={() => void del()}
        >
          {t(`${texts}.delete`)}
        </button>
      </div>
      {renaming && (
        <form
          className="manage-form manage-inline"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label className="manage-field">
            <span>{t(`${texts}.name`)}</span>
            <input value={value} required maxLength={maxLength} onChange={(e) => setValue(e.target.value)} />
          </label>
          <button type="submit" className="button button-primary">
            {t(`${texts}.save`)}
          </button>
        </form>
      )}
    </>
  );
}

/** Previous and next page, with where we are. */
export function Pager({
  page,
  pages,
  count,
  onPage,
  t,
}: {
  page: number;
  pages: number;
  count: number;
  onPage: (page: number) => void;
  t: ManageT;
}) {
  return (
    <nav className="manage-pager" aria-label={t('common.page', { page, pages, count })}>
      <button type="button" className="button button-default" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('common.prev')}
      </button>
      <span className="manage-pager-text">{t('common.page', { page, pages, count })}</span>
      <button type="button" className="button button-default" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('common.next')}
      </button>
    </nav>
  );
}

/** A date and time in the reader's language. */
export { formatDateTime as formatTime } from '../../lib/relative-time';
