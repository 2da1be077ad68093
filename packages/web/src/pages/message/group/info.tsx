import {
  ANNOUNCEMENT_MAX,
  GROUP_NAME_MAX,
  GROUP_RETENTION_DAYS,
  GroupRoles,
  REALNAME_MAX,
  withinGraphemes,
  type GroupInfo,
  type GroupMember,
  type GroupSetting,
  type GroupRole,
} from '@sparrow/protocol';
import { AddOutline, MinusOutline, RightOutline, SystemQRcodeOutline } from 'antd-mobile-icons';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Avatar } from '../../../components/Avatar';
import { AvatarUploadCell } from '../../../components/AvatarUploadCell';
import { ActionCell, Cell, CellGroup, SwitchCell } from '../../../components/Cell';
import { ChatSettingsCells } from '../../../components/chat/ChatSettingsCells';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { feedback } from '../../../components/feedback';
import { Field } from '../../../components/Field';
import { Page } from '../../../components/Page';
import { useConfirmedAction } from '../../../components/use-confirmed-action';
import { GroupPending } from '../../../components/group/GroupPending';
import { useCloseWhenGone, useGroupIdParam } from '../../../components/group/hooks';
import { NoticeHtml } from '../../../components/group/NoticeHtml';
import { noticePlainText } from '../../../components/group/notice';
import { SpeakBanner } from '../../../components/group/SpeakBanner';
import { RobotsCell } from '../../../components/robots/RobotsCell';
import { formatMuteEnd } from '../../../components/group/format';
import { useNowUntil } from '../../../lib/use-now-until';
import { useBackTo } from '../../../nav/navigation';
import { groupCodePath, groupPath, paths, reportPath, withQuery } from '../../../nav/paths';
import { groupActions, groupSpeakState, myRole, useGroup, type GroupEntry } from '../../../stores/group';
import { groupPermissions, memberName, type GroupPermissions } from '../../../stores/group-rules';
import { useConfig } from '../../../stores/config';
import { useRemarks } from '../../../stores/remarks';
import '../../../components/group/group.css';
import '../../../components/lists.css';
import '../../pages.css';

// The editor (Quill) is its own chunk: only people who edit an announcement download it.
const AnnouncementEditor = lazy(() => import('../../../components/group/AnnouncementEditor'));

/** How many faces the member grid shows before "see all". */
const GRID_SIZE = 15;

type Edit = 'name' | 'nickname' | 'notice';

/** The group's name: what its members call it, or the generated one. */
const groupName = (info: GroupInfo) => info.displayName || info.name;

interface TextEditorProps {
  id: string;
  title: string;
  label: string;
  initial: string;
  hint?: string;
  /** Longest value, in characters as a person counts them. */
  max: number;
  /** Message when the value may not be empty; absent when empty is allowed. */
  requiredMessage?: string;
  tooLongMessage: string;
  save: (value: string) => Promise<unknown>;
}

/** One text field of the group edited on its own page: the name, or my nickname in it. */
function TextEditor({ id, title, label, initial, hint, max, requiredMessage, tooLongMessage, save }: TextEditorProps) {
  const { t } = useTranslation();
  const back = useBackTo(withQuery(paths.chatDetail, { id }));
  const [value, setValue] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const trimmed = value.trim();
  const error =
    requiredMessage && trimmed.length === 0 ? requiredMessage : !withinGraphemes(trimmed, max) ? tooLongMessage : null;
  const handleSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (error) return;
    setBusy(true);
    try {
      await save(trimmed);
      back();
    } catch {
      // The request layer has shown the server's reason.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Page title={title} onBack={back}>
      <form onSubmit={(e) => void handleSubmit(e)} noValidate>
        <div className="form cell-group">
          <Field
            label={label}
            value={value}
            onChange={setValue}
            error={touched || !requiredMessage ? error : null}
            {...(hint !== undefined && { hint })}
            maxLength={max * 2}
            autoFocus
          />
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Page>
  );
}

function NameEditor({ id, info }: { id: string; info: GroupInfo }) {
  const { t } = useTranslation();
  return (
    <TextEditor
      id={id}
      title={t('group.info.editName')}
      label={t('group.info.name')}
      initial={groupName(info)}
      max={GROUP_NAME_MAX}
      requiredMessage={t('group.info.nameRequired')}
      tooLongMessage={t('group.info.nameTooLong', { max: GROUP_NAME_MAX })}
      save={(value) => groupActions.rename(id, value)}
    />
  );
}

function NicknameEditor({ id, info }: { id: string; info: GroupInfo }) {
  const { t } = useTranslation();
  return (
    <TextEditor
      id={id}
      title={t('group.info.editNickname')}
      label={t('group.info.nickname')}
      initial={info.nickname}
      hint={t('group.info.nicknameHint')}
      max={REALNAME_MAX}
      tooLongMessage={t('group.info.nicknameTooLong', { max: REALNAME_MAX })}
      save={(value) => groupActions.updateCard(id, value)}
    />
  );
}

function NoticeView({ id, info, canEdit }: { id: string; info: GroupInfo; canEdit: boolean }) {
  const { t } = useTranslation();
  const back = useBackTo(withQuery(paths.chatDetail, { id }));
  return (
    <Page
      title={t('group.notice.title')}
      onBack={back}
      right={
        canEdit ? (
          <Link className="navbar-action" to={groupPath('info', id, { edit: 'notice' })}>
            {t('group.notice.edit')}
          </Link>
        ) : undefined
      }
    >
      <article className="gm-notice-page" aria-label={t('group.notice.title')}>
        {info.notice ? <NoticeHtml html={info.notice} /> : <p className="gm-notice-empty">{t('group.notice.none')}</p>}
      </article>
    </Page>
  );
}

function NoticeEditor({ id, info }: { id: string; info: GroupInfo }) {
  const { t } = useTranslation();
  const back = useBackTo(withQuery(paths.chatDetail, { id }));
  const [draft, setDraft] = useState<{ html: string; length: number } | null>(null);
  // The editor writes the announcement in its own markup: what it first reports is "unchanged".
  const [loaded, setLoaded] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const changed = draft !== null && draft.html !== loaded;
  const tooLong = (draft?.length ?? 0) > ANNOUNCEMENT_MAX;
  const handlePublish = async () => {
    if (!draft) return;
    const ok = await feedback.confirm({
      content: draft.html ? t('group.notice.publishConfirm') : t('group.notice.clearConfirm'),
      confirmText: draft.html ? t('group.notice.publish') : t('group.notice.clear'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    setBusy(true);
    try {
      await groupActions.setNotice(id, draft.html);
      back();
    } catch {
      // The request layer has shown the server's reason; the draft stays for another try.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Page
      title={t('group.notice.editTitle')}
      onBack={back}
      right={
        <button
          type="button"
          className="navbar-action"
          disabled={!changed || tooLong || busy}
          onClick={() => void handlePublish()}
        >
          {t('group.notice.publish')}
        </button>
      }
    >
      <Suspense fallback={<DelayedSpinner />}>
        <AnnouncementEditor
          initialHtml={info.notice}
          onChange={(html, length) => {
            setLoaded((first) => first ?? html);
            setDraft({ html, length });
          }}
        />
      </Suspense>
    </Page>
  );
}

/**
 * The members as chat info shows them: faces and names as I call them (my remark first), each
 * opening the person unless the group keeps profiles closed; adding people for whoever may
 * invite, and the member list for its managers; the rest behind "see all".
 */
function MemberGrid({ id, members, can }: { id: string; members: GroupMember[]; can: GroupPermissions }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remarkFor = useRemarks();
  const [all, setAll] = useState(false);
  const shown = all ? members : members.slice(0, GRID_SIZE);
  return (
    <section className="member-grid-wrap" aria-label={t('detail.members')}>
      <ul className="member-grid">
        {shown.map((m) => {
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
        })}
        {can.invite && (
          <li>
            <button
              type="button"
              className="member member-add"
              onClick={() => void navigate(withQuery(paths.userSelection, { mode: 'add', group_id: id }))}
            >
              <span className="member-add-icon" aria-hidden="true">
                <AddOutline />
              </span>
              <span className="member-name">{t('detail.invite')}</span>
            </button>
          </li>
        )}
        {can.manage && (
          <li>
            <Link className="member member-add" to={groupPath('members', id)}>
              <span className="member-add-icon" aria-hidden="true">
                <MinusOutline />
              </span>
              <span className="member-name">{t('group.members.manage')}</span>
            </Link>
          </li>
        )}
      </ul>
      {members.length > GRID_SIZE && (
        <button type="button" className="member-more" aria-expanded={all} onClick={() => setAll((v) => !v)}>
          {all ? t('detail.fewerMembers') : t('detail.allMembers', { count: members.length })}
          <RightOutline aria-hidden="true" className={all ? 'member-more-up' : 'member-more-down'} />
        </button>
      )}
    </section>
  );
}

function AvatarCell({ id, info, editable }: { id: string; info: GroupInfo; editable: boolean }) {
  const { t } = useTranslation();
  const name = groupName(info);
  const avatar = <Avatar src={info.avatar} name={name} alt={t('group.info.avatarOf', { name })} size={44} />;
  if (!editable) return <Cell title={t('group.info.avatar')} extra={avatar} />;
  return (
    <AvatarUploadCell
      title={t('group.info.avatar')}
      avatar={avatar}
      changeLabel={t('group.info.changeAvatar')}
      upload={(file) => groupActions.uploadAvatar(id, file)}
      updatedText={t('group.info.avatarUpdated')}
    />
  );
}

const NOSPEAK: readonly GroupSetting['nospeak'][] = [0, 1, 2];

function ManageSettings({ id, setting: saved, owner }: { id: string; setting: GroupSetting; owner: boolean }) {
  const { t } = useTranslation();
  // What I just chose shows while the server decides; a refusal puts the saved value back.
  const [pending, setPending] = useState<Partial<GroupSetting>>({});
  const setting = { ...saved, ...pending };
  const change = (patch: Partial<GroupSetting>) => {
    setPending((p) => ({ ...p, ...patch }));
    const settle = () =>
      setPending((p) => Object.fromEntries(Object.entries(p).filter(([k]) => !(k in patch))) as Partial<GroupSetting>);
    groupActions.setting(id, patch).then(settle, () => {
      // The request layer has shown why.
      settle();
    });
  };
  return (
    <CellGroup title={t('group.settings.title')}>
      <SwitchCell
        title={t('group.settings.invite')}
        checked={setting.invite === 1}
        onChange={(v) => change({ invite: v ? 1 : 0 })}
      />
      <SwitchCell
        title={t('group.settings.history')}
        checked={setting.history === 1}
        onChange={(v) => change({ history: v ? 1 : 0 })}
      />
      <SwitchCell
        title={t('group.settings.profile')}
        checked={setting.profile === 1}
        onChange={(v) => change({ profile: v ? 1 : 0 })}
      />
      {owner && (
        <SwitchCell
          title={t('pins.groupSwitch')}
          checked={setting.pin === 1}
          onChange={(v) => change({ pin: v ? 1 : 0 })}
        />
      )}
      <SwitchCell
        title={t('reactions.groupSwitch')}
        checked={setting.reaction !== 0}
        onChange={(v) => change({ reaction: v ? 1 : 0 })}
      />
      <SwitchCell
        title={t('receipts.groupSwitch')}
        checked={setting.receipt !== 0}
        onChange={(v) => change({ receipt: v ? 1 : 0 })}
      />
      <li>
        <fieldset className="gm-segmented-block">
          <legend>{t('group.settings.nospeak')}</legend>
          <div className="segmented">
            {NOSPEAK.map((value) => (
              <label key={value}>
                <input
                  type="radio"
                  name={`nospeak-${id}`}
                  value={value}
                  checked={setting.nospeak === value}
                  onChange={() => change({ nospeak: value })}
                />
                {t(`group.settings.nospeak${value}`)}
              </label>
            ))}
          </div>
        </fieldset>
      </li>
    </CellGroup>
  );
}

/**
 * How long the group's messages are kept (消息保存时间): the owner picks it among
 * GROUP_RETENTION_DAYS; everyone else sees it. The server's own limit, when shorter, is said too:
 * the shorter applies.
 */
function RetentionCells({ id, setting, owner }: { id: string; setting: GroupSetting; owner: boolean }) {
  const { t } = useTranslation();
  const serverDays = useConfig((s) => s.config?.chatInfo.messageDays ?? 0);
  const [pending, setPending] = useState<GroupSetting['retention'] | undefined>(undefined);
  const days = pending ?? setting.retention;
  const label = (d: number) => (d > 0 ? t('retention.days', { days: d }) : t('retention.forever'));
  const stricter = serverDays > 0 && (days === 0 || serverDays < days);
  const choose = (value: GroupSetting['retention']) => {
    setPending(value);
    // The request layer shows a refusal; the saved value comes back with the group's push.
    void groupActions.setting(id, { retention: value }).finally(() => setPending(undefined));
  };
  return (
    <CellGroup>
      {owner ? (
        <li>
          <fieldset className="gm-segmented-block">
            <legend>{t('retention.title')}</legend>
            <div className="segmented">
              {GROUP_RETENTION_DAYS.map((value) => (
                <label key={value}>
                  <input
                    type="radio"
                    name={`retention-${id}`}
                    value={value}
                    checked={days === value}
                    onChange={() => choose(value)}
                  />
                  {label(value)}
                </label>
              ))}
            </div>
            <p className="gm-retention-hint">
              {stricter ? t('retention.serverDays', { days: serverDays }) : t('retention.hint')}
            </p>
          </fieldset>
        </li>
      ) : (
        <Cell title={t('retention.title')} value={label(stricter ? serverDays : days)} />
      )}
    </CellGroup>
  );
}

/**
 * The group's closing actions: clear its history for everyone (owner), leave (删除并退出, as
 * WeChat names it on this page), disband (owner).
 */
function GroupActionsBlock({ id, role, leaveLabel }: { id: string; role: GroupRole; leaveLabel?: string }) {
  const { t } = useTranslation();
  const can = groupPermissions(role, { invite: 0 });
  const { busy, run } = useConfirmedAction();
  const handleClear = () =>
    run(
      {
        title: t('group.info.clearHistory'),
        content: t('group.info.clearConfirm'),
        confirmText: t('group.info.clear'),
      },
      async () => {
        await groupActions.clearHistory(id);
        feedback.toast(t('group.info.cleared'));
      },
    );
  const handleLeave = () =>
    run(
      { title: t('group.info.leave'), content: t('group.info.leaveConfirm'), confirmText: t('group.info.leaveShort') },
      () => groupActions.leave(id),
    );
  const handleDisband = () =>
    run(
      {
        title: t('group.info.disband'),
        content: t('group.info.disbandConfirm'),
        confirmText: t('group.info.disbandShort'),
      },
      () => groupActions.disband(id),
    );
  return (
    <>
      {can.clearHistory && (
        <CellGroup>
          <ActionCell disabled={busy} onClick={() => void handleClear()}>
            {t('group.info.clearHistory')}
          </ActionCell>
        </CellGroup>
      )}
      <CellGroup>
        {can.leave && (
          <ActionCell danger disabled={busy} onClick={() => void handleLeave()}>
            {leaveLabel ?? t('group.info.leave')}
          </ActionCell>
        )}
        {can.disband && (
          <ActionCell danger disabled={busy} onClick={() => void handleDisband()}>
            {t('group.info.disband')}
          </ActionCell>
        )}
      </CellGroup>
    </>
  );
}

function GroupInfoView({ id, entry, info }: { id: string; entry: GroupEntry; info: GroupInfo }) {
  const { t, i18n } = useTranslation();
  const role = myRole(entry);
  const can = groupPermissions(role, info.setting);
  const now = useNowUntil([info.no_speak_until]);
  const speak = groupSpeakState(entry, now);
  const members = entry.members ?? [];
  const name = groupName(info);
  const noticeText = noticePlainText(info.notice);
  const muteEnd = info.no_speak_until > now ? formatMuteEnd(info.no_speak_until, now, i18n.language) : null;
  return (
    <Page title={t('detail.groupTitle', { count: info.member_count })}>
      <SpeakBanner state={speak} />
      <MemberGrid id={id} members={members} can={can} />
      <CellGroup>
        {can.manage ? (
          <Cell title={t('group.info.name')} value={name} to={groupPath('info', id, { edit: 'name' })} />
        ) : (
          <Cell title={t('group.info.name')} value={name} />
        )}
        <AvatarCell id={id} info={info} editable={can.manage} />
        <Cell
          title={t('group.qr.title')}
          to={groupCodePath(id)}
          extra={<SystemQRcodeOutline className="gm-qr-icon" aria-hidden="true" />}
        />
        <li>
          <Link className="cell cell-action" to={groupPath('info', id, { view: 'notice' })}>
            <span className="gm-cell-stack">
              <span className="cell-title">{t('group.notice.title')}</span>
              <span className="gm-notice-preview">{noticeText || t('group.notice.none')}</span>
            </span>
            <RightOutline className="cell-arrow" aria-hidden="true" />
          </Link>
        </li>
        <RobotsCell groupId={id} />
      </CellGroup>
      <CellGroup>
        <Cell
          title={t('group.info.nickname')}
          value={info.nickname || t('common.notSet')}
          to={groupPath('info', id, { edit: 'nickname' })}
        />
        <Cell
          title={t('group.info.myRole')}
          value={t(
            role === GroupRoles.Owner
              ? 'group.role.owner'
              : role === GroupRoles.Admin
                ? 'group.role.admin'
                : 'group.role.member',
          )}
        />
        {muteEnd && (
          <Cell title={t('group.info.muteStatus')} value={t('group.members.mutedUntil', { time: muteEnd })} />
        )}
      </CellGroup>
      {can.manage && <ManageSettings id={id} setting={info.setting} owner={role === GroupRoles.Owner} />}
      <RetentionCells id={id} setting={info.setting} owner={role === GroupRoles.Owner} />
      <ChatSettingsCells chatKey={id} />
      {role !== GroupRoles.Owner && (
        <CellGroup>
          <Cell title={t('report.action')} to={reportPath('group', id)} />
        </CellGroup>
      )}
      <GroupActionsBlock id={id} role={role} leaveLabel={t('detail.deleteAndLeave')} />
    </Page>
  );
}

/**
 * A group's one info page, as WeChat has it (聊天信息): members, name, picture, code, notice, its
 * robots, my nickname and role, the settings its managers change, then the chat's own settings and the
 * closing actions. Closes when the group goes away for me.
 */
export function GroupChatInfo({ id }: { id: string }) {
  const { t } = useTranslation();
  const entry = useGroup(id);
  useCloseWhenGone(entry);
  const info = entry?.info;
  if (!entry || !info) return <GroupPending id={id} title={t('routes.chatDetail')} entry={entry} />;
  return <GroupInfoView id={id} entry={entry} info={info} />;
}

/**
 * Group info (`/pages/message/group/info?id=group-N`): its sub-views by `edit` / `view`; the page
 * itself is the group's chat info.
 */
export default function GroupInfoPage() {
  const { t } = useTranslation();
  const id = useGroupIdParam();
  const entry = useGroup(id);
  const [params] = useSearchParams();
  useCloseWhenGone(entry);

  const info = entry?.info;
  if (!id || !entry || !info) return <GroupPending id={id} title={t('group.info.title')} entry={entry} />;

  const can = groupPermissions(myRole(entry), info.setting);
  const edit = params.get('edit') as Edit | null;
  const view = params.get('view');
  if (edit === 'name' && can.manage) return <NameEditor id={id} info={info} />;
  if (edit === 'nickname') return <NicknameEditor id={id} info={info} />;
  if (edit === 'notice' && can.manage) return <NoticeEditor id={id} info={info} />;
  if (view === 'notice' || edit === 'notice') return <NoticeView id={id} info={info} canEdit={can.manage} />;
  return <Navigate to={withQuery(paths.chatDetail, { id })} replace />;
}
