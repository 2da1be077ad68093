import { ADD_GROUP_USER_MAX, type Contact, type GroupMember, GroupRoles, type GroupRole } from '@sparrow/protocol';
import { MoreOutline, SearchOutline, UserAddOutline } from 'antd-mobile-icons';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../../api';
import { Avatar } from '../../../components/Avatar';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { EmptyState } from '../../../components/EmptyState';
import { feedback } from '../../../components/feedback';
import { Page } from '../../../components/Page';
import { ActionSheet, type SheetAction } from '../../../components/group/ActionSheet';
import { formatMuteEnd } from '../../../components/group/format';
import { GroupPending } from '../../../components/group/GroupPending';
import { useCloseWhenGone, useGroupIdParam } from '../../../components/group/hooks';
import { useNowUntil } from '../../../lib/use-now-until';
import { useBackTo } from '../../../nav/navigation';
import { groupPath } from '../../../nav/paths';
import { MUTE_TIMERS, groupActions, myRole, useGroup, type MuteTimer } from '../../../stores/group';
import {
  groupPermissions,
  hasAnyAction,
  isMuted,
  memberActions,
  memberName,
  searchMembers,
} from '../../../stores/group-rules';
import { useRemark } from '../../../stores/remarks';
import { useSession } from '../../../stores/session';
import '../../../components/group/group.css';

function SearchBox({ value, onChange, label }: { value: string; onChange: (v: string) => void; label: string }) {
  return (
    <div className="gm-search-box">
      <SearchOutline aria-hidden="true" />
      <input
        type="search"
        className="gm-search-input"
        aria-label={label}
        placeholder={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/** Add members: the people getAllUser says I may add (friends, or everyone in runMode 1). */
function InviteView({ id }: { id: string }) {
  const { t } = useTranslation();
  const back = useBackTo(groupPath('members', id));
  const [people, setPeople] = useState<Contact[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    api.getAllUser({ group_id: id }).then(
      (list) => live && setPeople(list),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [id]);

  const userIdOf = (c: Contact) => c.user_id ?? Number(c.id);
  const shown = useMemo(() => {
    const q = query.trim().toLocaleLowerCase();
    return (people ?? []).filter(
      (c) => !q || [c.displayName, c.realname, c.account].some((v) => v?.toLocaleLowerCase().includes(q)),
    );
  }, [people, query]);

  const toggle = (userId: number) =>
    setPicked((p) => (p.includes(userId) ? p.filter((x) => x !== userId) : [...p, userId]));

  const handleDone = async () => {
    if (picked.length === 0) return;
    setBusy(true);
    try {
      await groupActions.invite(id, picked);
      back();
    } catch {
      // The request layer has shown the server's reason (invite closed, group full…).
    } finally {
      setBusy(false);
    }
  };

  const full = picked.length >= ADD_GROUP_USER_MAX;
  return (
    <Page
      title={t('group.invite.title')}
      onBack={back}
      right={
        <button
          type="button"
          className="navbar-action"
          disabled={picked.length === 0 || busy}
          onClick={() => void handleDone()}
        >
          {picked.length ? t('group.invite.doneCount', { count: picked.length }) : t('group.invite.done')}
        </button>
      }
    >
      <SearchBox value={query} onChange={setQuery} label={t('group.invite.search')} />
      {failed ? (
        <EmptyState icon={<UserAddOutline />} title={t('group.invite.loadFailed')} description="" />
      ) : people === null ? (
        <DelayedSpinner />
      ) : people.length === 0 ? (
        <EmptyState icon={<UserAddOutline />} title={t('group.invite.none')} description={t('group.invite.noneDesc')} />
      ) : (
        <>
          <p className="gm-member-count" role="status">
            {t('group.invite.picked', { count: picked.length, max: ADD_GROUP_USER_MAX })}
          </p>
          <ul className="cells">
            {shown.map((c) => {
              const userId = userIdOf(c);
              const checked = picked.includes(userId);
              return (
                <li key={userId}>
                  <label className="gm-pick-row">
                    <input
                      type="checkbox"
                      checked={checked}
                      disabled={!checked && full}
                      onChange={() => toggle(userId)}
                    />
                    <Avatar src={c.avatar} name={c.displayName} alt="" size={40} />
                    <span className="gm-member-name">{c.displayName}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </Page>
  );
}

type Sheet = { kind: 'actions' | 'mute'; member: GroupMember } | null;

function MemberRow({
  member,
  me,
  myRole: role,
  now,
  onOpen,
}: {
  member: GroupMember;
  me: number;
  myRole: GroupRole;
  now: number;
  onOpen: (m: GroupMember) => void;
}) {
  const { t, i18n } = useTranslation();
  const name = memberName(member, useRemark(member.user_id));
  const actions = memberActions(role, me, member, now);
  const muted = isMuted(member.no_speak_until, now);
  const realname = member.userInfo.realname || member.userInfo.displayName;
  const body = (
    <>
      <Avatar src={member.userInfo.avatar} name={name} alt="" size={44} />
      <span className="gm-member-text">
        <span className="gm-member-name">
          {name}
          {member.user_id === me && <span className="visually-hidden">{t('group.members.youSuffix')}</span>}
        </span>
        {member.nickname && realname && realname !== name && <span className="gm-member-sub">{realname}</span>}
        {(member.role !== GroupRoles.Member || muted || member.user_id === me) && (
          <span className="gm-member-tags">
            {member.role === GroupRoles.Owner && <span className="tag gm-tag-owner">{t('group.role.owner')}</span>}
            {member.role === GroupRoles.Admin && <span className="tag gm-tag-admin">{t('group.role.admin')}</span>}
            {member.user_id === me && (
              <span className="tag tag-muted" aria-hidden="true">
                {t('group.members.you')}
              </span>
            )}
            {muted && (
              <span className="tag gm-tag-mute">
                {t('group.members.mutedUntil', { time: formatMuteEnd(member.no_speak_until, now, i18n.language) })}
              </span>
            )}
          </span>
        )}
      </span>
    </>
  );
  if (!hasAnyAction(actions)) {
    return (
      <li>
        <div className="gm-member-row">{body}</div>
      </li>
    );
  }
  return (
    <li>
      <button type="button" className="gm-member-row" aria-haspopup="dialog" onClick={() => onOpen(member)}>
        {body}
        <MoreOutline className="gm-member-more" aria-hidden="true" />
      </button>
    </li>
  );
}

/** Group members (`/pages/message/group/groupUser?id=group-N`): roles, mutes, and what my role may do. */
export default function GroupUserPage() {
  const { t, i18n } = useTranslation();
  const id = useGroupIdParam();
  const entry = useGroup(id);
  const [params] = useSearchParams();
  const me = useSession((s) => s.user?.user_id ?? 0);
  const [query, setQuery] = useState('');
  const [sheet, setSheet] = useState<Sheet>(null);
  useCloseWhenGone(entry);
  const members = entry?.members ?? null;
  const now = useNowUntil(members?.map((m) => m.no_speak_until) ?? []);
  const shown = useMemo(() => searchMembers(members ?? [], query), [members, query]);

  if (!id) return <GroupPending id={id} title={t('group.members.title')} entry={entry} />;
  if (params.get('invite') === '1') return <InviteView id={id} />;

  const info = entry?.info;
  if (!entry || !info || !members) return <GroupPending id={id} title={t('group.members.title')} entry={entry} />;

  const role = myRole(entry);
  const can = groupPermissions(role, info.setting);
  const current = sheet ? (members.find((m) => m.user_id === sheet.member.user_id) ?? null) : null;

  const run = async (action: () => Promise<unknown>) => {
    try {
      await action();
    } catch {
      // The request layer has shown the server's reason.
    }
  };

  const confirmThen = async (content: string, confirmText: string, action: () => Promise<unknown>) => {
    const ok = await feedback.confirm({ content, confirmText, cancelText: t('common.cancel'), danger: true });
    if (ok) await run(action);
  };

  const sheetActions = (m: GroupMember): SheetAction[] => {
    const a = memberActions(role, me, m, now);
    const name = memberName(m);
    const list: SheetAction[] = [];
    if (a.setAdmin) {
      list.push({
        key: 'setAdmin',
        text: t('group.members.setAdmin'),
        onSelect: () => void run(() => groupActions.setManager(id, m.user_id, true)),
      });
    }
    if (a.unsetAdmin) {
      list.push({
        key: 'unsetAdmin',
        text: t('group.members.unsetAdmin'),
        onSelect: () => void run(() => groupActions.setManager(id, m.user_id, false)),
      });
    }
    if (a.mute) {
      list.push({
        key: 'mute',
        text: isMuted(m.no_speak_until, now) ? t('group.members.muteAgain') : t('group.members.mute'),
        onSelect: () => setSheet({ kind: 'mute', member: m }),
      });
    }
    if (a.unmute) {
      list.push({
        key: 'unmute',
        text: t('group.members.unmute'),
        onSelect: () => void run(() => groupActions.mute(id, m.user_id, 0)),
      });
    }
    if (a.transfer) {
      list.push({
        key: 'transfer',
        text: t('group.members.transfer'),
        onSelect: () =>
          void confirmThen(t('group.members.transferConfirm', { name }), t('group.members.transferShort'), () =>
            groupActions.changeOwner(id, m.user_id),
          ),
      });
    }
    if (a.remove) {
      list.push({
        key: 'remove',
        text: t('group.members.remove'),
        danger: true,
        onSelect: () =>
          void confirmThen(t('group.members.removeConfirm', { name }), t('group.members.removeShort'), () =>
            groupActions.remove(id, m.user_id),
          ),
      });
    }
    return list;
  };

  const muteActions = (m: GroupMember): SheetAction[] =>
    MUTE_TIMERS.map((timer: MuteTimer) => ({
      key: `mute-${timer}`,
      text: t(`group.mute.option${timer}`),
      onSelect: () => void run(() => groupActions.mute(id, m.user_id, timer)),
    }));

  const currentName = current ? memberName(current) : '';
  const mutedNote =
    current && isMuted(current.no_speak_until, now)
      ? t('group.members.mutedUntil', { time: formatMuteEnd(current.no_speak_until, now, i18n.language) })
      : undefined;

  return (
    <Page
      title={t('group.members.titleCount', { count: info.member_count })}
      right={
        can.invite ? (
          <Link className="navbar-action" to={groupPath('members', id, { invite: '1' })}>
            {t('group.members.invite')}
          </Link>
        ) : undefined
      }
    >
      <SearchBox value={query} onChange={setQuery} label={t('group.members.search')} />
      {shown.length === 0 ? (
        <p className="gm-member-count" role="status">
          {t('group.members.noMatch')}
        </p>
      ) : (
        <ul className="cells" aria-label={t('group.members.listLabel')}>
          {shown.map((m) => (
            <MemberRow
              key={m.user_id}
              member={m}
              me={me}
              myRole={role}
              now={now}
              onOpen={(member) => setSheet({ kind: 'actions', member })}
            />
          ))}
        </ul>
      )}
      <ActionSheet
        open={current !== null && sheet?.kind === 'actions'}
        title={t('group.members.actionsFor', { name: currentName })}
        description={mutedNote}
        actions={current ? sheetActions(current) : []}
        onClose={() => setSheet((s) => (s?.kind === 'actions' ? null : s))}
      />
      <ActionSheet
        open={current !== null && sheet?.kind === 'mute'}
        title={t('group.mute.title', { name: currentName })}
        actions={current ? muteActions(current) : []}
        onClose={() => setSheet((s) => (s?.kind === 'mute' ? null : s))}
      />
    </Page>
  );
}
