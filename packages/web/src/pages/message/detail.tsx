import { AddOutline, RightOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api';
import { feedback } from '../../app/feedback';
import { groupPath } from '../../app/group-paths';
import { groupCodePath } from '../../app/qr-paths';
import { paths, withQuery } from '../../app/paths';
import { clearHistory } from '../../chat/clear-history';
import { isGroupOf } from '../../chat/registry';
import { useGroup } from '../../chat/use-chat';
import { useCloseWhenGroupGone } from '../../components/group/hooks';
import { filesPath } from '../../app/media-paths';
import { Avatar } from '../../components/Avatar';
import { ChatBackgroundCell } from '../../components/background/ChatBackgroundCell';
import { Cell, CellGroup, SwitchCell } from '../../components/Cell';
import { ContactAvatar } from '../../components/ContactAvatar';
import { Page } from '../../components/Page';
import { contactIdOf, isGroupKey, SELF_KEY } from '../../lib/conversation-list';
import { contacts, useContacts } from '../../stores/contacts';
import { memberName } from '../../stores/group-rules';
import { useRemarks } from '../../stores/remarks';
import { GroupActionsBlock } from './group/info';
import '../../components/lists.css';
import '../pages.css';

/** The members shown before "show all". */
const GRID_FIRST = 15;

/** Rich announcement text (sanitized HTML from the server) as plain text for a one-line value. */
function plain(html: string): string {
  if (!html) return '';
  return new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() ?? '';
}

/** Chat info (spec §2 `/pages/message/detail?id=`): members, pin, mute, history search, clear. */
export default function ChatDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const key = params.get('id') ?? '';
  const contact = useContacts((s) => s.rows[key]);
  const group = useGroup(key);
  const [allMembers, setAllMembers] = useState(false);
  const remarkFor = useRemarks();
  const isGroup = isGroupKey(key);
  // Left (删除并退出), removed or disbanded: the page closes, as the chat does.
  useCloseWhenGroupGone(isGroup ? key : null);
  if (!key) return <Navigate to={paths.home} replace />;

  const body = { id: contactIdOf(key), is_group: isGroupOf(key) };
  const isTop = contact?.is_top === 1;
  const muted = contact?.is_notice === 0;

  const toggle = async (field: 'is_top' | 'is_notice', value: 0 | 1) => {
    const before = contact?.[field];
    contacts.patch(key, { [field]: value });
    try {
      if (field === 'is_top') await api.setChatTop({ ...body, is_top: value }, { quiet: true });
      else await api.isNotice({ ...body, is_notice: value }, { quiet: true });
    } catch {
      if (before !== undefined) contacts.patch(key, { [field]: before });
    }
  };

  const handleClear = async () => {
    const ok = await feedback
      .confirm({ content: t('detail.clearConfirm'), confirmText: t('detail.clear'), cancelText: t('common.cancel') })
      .catch(() => false);
    if (!ok) return;
    try {
      await clearHistory(key);
      feedback.toast(t('detail.cleared'));
    } catch {
      // The request layer said why.
    }
  };

  const info = group.info;
  const mayInvite = isGroup && info !== null && (info.isJoin === 1 || info.isJoin === 2 || info.setting.invite === 1);
  const members = allMembers ? group.members : group.members.slice(0, GRID_FIRST);
  const title = isGroup
    ? t('detail.groupTitle', { count: info?.member_count ?? group.members.length })
    : t('routes.chatDetail');

  return (
    <Page title={title}>
      <section className="member-grid-wrap" aria-label={t('detail.members')}>
        <ul className="member-grid">
          {isGroup
            ? members.map((m) => {
                const name = memberName(m, remarkFor(m.user_id));
                const face = (
                  <>
                    <Avatar src={m.userInfo.avatar} name={name} alt="" size={52} />
                    <span className="member-name">{name}</span>
                  </>
                );
                // A group that keeps its members' profiles closed (profile 0) shows only name and face.
                return (
                  <li key={m.user_id}>
                    {m.profile === 0 ? (
                      <span className="member member-closed">{face}</span>
                    ) : (
                      <Link className="member" to={withQuery(paths.contactDetail, { id: m.user_id })}>
                        {face}
                      </Link>
                    )}
                  </li>
                );
              })
            : contact &&
              key !== SELF_KEY && (
                <li>
                  <Link className="member" to={withQuery(paths.contactDetail, { id: key })}>
                    <ContactAvatar contact={contact} size={52} />
                    <span className="member-name">{contact.displayName}</span>
                  </Link>
                </li>
              )}
          {(mayInvite || (!isGroup && key !== SELF_KEY)) && (
            <li>
              <button
                type="button"
                className="member member-add"
                onClick={() =>
                  void navigate(
                    isGroup
                      ? withQuery(paths.userSelection, { mode: 'add', group_id: key })
                      : withQuery(paths.userSelection, { mode: 'group', with: key }),
                  )
                }
              >
                <span className="member-add-icon" aria-hidden="true">
                  <AddOutline />
                </span>
                <span className="member-name">{isGroup ? t('detail.invite') : t('detail.startGroup')}</span>
              </button>
            </li>
          )}
        </ul>
        {isGroup && group.members.length > GRID_FIRST && (
          <button
            type="button"
            className="member-more"
            aria-expanded={allMembers}
            onClick={() => setAllMembers((v) => !v)}
          >
            {allMembers ? t('detail.fewerMembers') : t('detail.allMembers', { count: group.members.length })}
            <RightOutline aria-hidden="true" className={allMembers ? 'member-more-up' : 'member-more-down'} />
          </button>
        )}
      </section>
      {isGroup && info && (
        <CellGroup>
          <Cell title={t('detail.groupName')} value={info.displayName} to={groupPath('info', key)} />
          <Cell
            title={t('detail.notice')}
            value={plain(info.notice) || t('detail.noNotice')}
            to={groupPath('info', key, { view: 'notice' })}
          />
          <Cell title={t('detail.manageMembers')} to={groupPath('members', key)} />
          <Cell title={t('qr.entry.group')} to={groupCodePath(key)} />
          <Cell
            title={t('detail.myNickname')}
            value={info.nickname || t('common.notSet')}
            to={groupPath('info', key, { edit: 'nickname' })}
          />
        </CellGroup>
      )}
      <CellGroup>
        <Cell title={t('detail.searchHistory')} to={withQuery(paths.record, { id: key })} />
        <Cell title={t('media.files.entry')} to={filesPath()} />
      </CellGroup>
      <CellGroup>
        <SwitchCell title={t('detail.mute')} checked={muted} onChange={(on) => void toggle('is_notice', on ? 0 : 1)} />
        <SwitchCell title={t('detail.pin')} checked={isTop} onChange={(on) => void toggle('is_top', on ? 1 : 0)} />
      </CellGroup>
      <CellGroup>
        <ChatBackgroundCell contactId={key} />
      </CellGroup>
      <div className="actions">
        <button type="button" className="button button-danger" onClick={() => void handleClear()}>
          {t('detail.clear')}
        </button>
      </div>
      {isGroup && info && !group.gone && (
        <GroupActionsBlock id={key} role={info.isJoin} leaveLabel={t('detail.deleteAndLeave')} withClear={false} />
      )}
      {isGroup && group.gone && <p className="form-note">{t('group.speak.notMember')}</p>}
    </Page>
  );
}
