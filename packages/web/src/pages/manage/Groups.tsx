import type { ManagedGroup } from '@sparrow/protocol';
import { TeamOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import { SearchBar } from '../../components/SearchBar';
import type { ManageT } from './i18n';
import { usePaged } from './paged';
import { formatTime, ListState, PagedRows, Pager } from './parts';

const ROLE = { 1: 'groups.roleOwner', 2: 'groups.roleAdmin', 3: 'groups.roleMember' } as const;

/** A group's members, each but the owner with a way to hand the group to them. */
function Members({ group, t, onChanged }: { group: ManagedGroup; t: ManageT; onChanged: () => void }) {
  const list = usePaged('manageGroupMembers', { group_id: group.group_id });
  const makeOwner = async (userId: number, name: string) => {
    const ok = await feedback.confirm({
      content: t('groups.confirmOwner', { name }),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    try {
      await api.manageGroupOwner({ group_id: group.group_id, user_id: userId }, { quiet: true });
      feedback.toast(t('common.done'));
      list.reload();
      onChanged();
    } catch {
      // The server's message was shown.
    }
  };
  if (list.status !== 'ready')
    return (
      <ListState
        status={list.status}
        empty={{ icon: <TeamOutline />, title: '', description: '' }}
        t={t}
        onRetry={list.reload}
      />
    );
  return (
    <section className="manage-members" aria-label={t('groups.membersOf', { name: group.name })}>
      <ul className="manage-list">
        {list.items.map((m) => (
          <li key={m.user_id} className="manage-row">
            <div className="manage-row-main">
              <p className="manage-row-title">
                {m.realname} <span className="manage-tag">{t(ROLE[m.role])}</span>
              </p>
              <p className="manage-row-sub">{m.account}</p>
            </div>
            {m.role !== 1 && (
              <div className="manage-row-actions">
                <button
                  type="button"
                  className="button button-default"
                  onClick={() => void makeOwner(m.user_id, m.realname)}
                >
                  {t('groups.makeOwner')}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {list.pages > 1 && <Pager page={list.page} pages={list.pages} count={list.count} onPage={list.setPage} t={t} />}
    </section>
  );
}

/** 群聊: search, page through, see members, hand over or disband. */
export function Groups({ t, locale }: { t: ManageT; locale: string }) {
  const [typed, setTyped] = useState('');
  const [keywords, setKeywords] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const list = usePaged('manageGroupList', { keywords });

  const disband = async (group: ManagedGroup) => {
    const ok = await feedback.confirm({
      content: t('groups.confirmDisband', { name: group.name }),
      confirmText: t('groups.disband'),
      danger: true,
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    try {
      await api.manageGroupDisband({ group_id: group.group_id }, { quiet: true });
      feedback.toast(t('common.done'));
      list.reload();
    } catch {
      // The server's message was shown.
    }
  };

  return (
    <>
      <SearchBar
        value={typed}
        onChange={(value) => {
          setTyped(value);
          if (!value.trim()) setKeywords('');
        }}
        onSubmit={() => setKeywords(typed.trim())}
        placeholder={t('groups.searchPlaceholder')}
        label={t('common.search')}
      />
      <PagedRows
        list={list}
        empty={{ icon: <TeamOutline />, title: t('groups.empty'), description: t('users.emptyDesc') }}
        t={t}
      >
        {list.items.map((g) => (
          <li key={g.group_id} className="manage-row">
            <div className="manage-row-main">
              <p className="manage-row-title">
                {g.name} <span className="manage-tag">{t('groups.members', { count: g.member_count })}</span>
              </p>
              <p className="manage-row-sub">
                {t('groups.owner', { name: g.owner.realname })} · {formatTime(g.create_time, locale)}
              </p>
            </div>
            <div className="manage-row-actions">
              <button
                type="button"
                className="button button-default"
                aria-expanded={open === g.group_id}
                onClick={() => setOpen(open === g.group_id ? null : g.group_id)}
              >
                {t('groups.viewMembers')}
              </button>
              <button type="button" className="button button-danger" onClick={() => void disband(g)}>
                {t('groups.disband')}
              </button>
            </div>
            {open === g.group_id && <Members group={g} t={t} onChanged={list.reload} />}
          </li>
        ))}
      </PagedRows>
    </>
  );
}
