import { liveStatus, REALNAME_MAX, withinGraphemes, type UserProfile, needsFriendship } from '@sparrow/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api';
import { startCall } from '../../call/start';
import { appEvents } from '../../chat/events';
import { AddFriendForm } from '../../components/AddFriendForm';
import { Avatar } from '../../components/Avatar';
import { BlockCell } from '../../components/BlockCell';
import { Cell, CellGroup } from '../../components/Cell';
import { feedback } from '../../components/feedback';
import { Field } from '../../components/Field';
import { Page } from '../../components/Page';
import { presenceText, statusText, type PresenceFacts } from '../../components/presence/presence';
import { SELF_KEY } from '../../lib/conversation-list';
import { useNow } from '../../lib/use-now';
import { useBackTo } from '../../nav/navigation';
import { albumPath, chatPath, paths, reportPath, withQuery } from '../../nav/paths';
import { useConfig } from '../../stores/config';
import { blocks } from '../../stores/blocks';
import { contacts, useContacts } from '../../stores/contacts';
import { useSession } from '../../stores/session';
import '../pages.css';

function RemarkEditor({ profile, friendId, onSaved }: { profile: UserProfile; friendId: number; onSaved: () => void }) {
  const { t } = useTranslation();
  const back = useBackTo(withQuery(paths.contactDetail, { id: profile.user_id }));
  const [value, setValue] = useState(profile.friend?.nickname ?? '');
  const [busy, setBusy] = useState(false);
  const tooLong = !withinGraphemes(value.trim(), REALNAME_MAX);
  const handleSave = async () => {
    if (tooLong) return;
    setBusy(true);
    try {
      const nickname = value.trim();
      await api.friendSetNickname({ friend_id: friendId, nickname }, { loading: true });
      contacts.patch(String(profile.user_id), { displayName: nickname || profile.realname });
      onSaved();
      back();
    } catch {
      // The request layer said why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Page title={t('contact.setRemark')} onBack={back}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void handleSave();
        }}
        noValidate
      >
        <div className="form cell-group">
          <Field
            label={t('contact.remark')}
            value={value}
            onChange={setValue}
            placeholder={profile.realname}
            hint={t('contact.remarkHint')}
            error={tooLong ? t('validation.realnameLength', { min: 0, max: REALNAME_MAX }) : null}
            autoFocus
          />
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={busy || tooLong}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Page>
  );
}

/** User info (docs/product.md §2 `/pages/contacts/detail?id=`): the card, remark, block, message, delete friend. */
export default function ContactDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const me = useSession((s) => s.user?.user_id);
  const runMode = useConfig((s) => s.config?.sysInfo.runMode ?? 2);
  const callsOn = useConfig((s) => s.config?.chatInfo.webrtc === 1);
  const row = useContacts((s) => s.rows[String(id)]);
  const now = useNow();
  const [profile, setProfile] = useState<UserProfile | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    if (!Number.isInteger(id) || id <= 0) return;
    try {
      setProfile(await api.getUserInfo({ user_id: id }, { silent: true }));
    } catch {
      setFailed(true);
    }
  }, [id]);

  useEffect(() => {
    void load();
    return appEvents.on('friendRequests', () => void load());
  }, [load]);

  useEffect(
    () =>
      blocks.subscribe((data) => {
        if (data.user_id === id) void load();
      }),
    [id, load],
  );

  // A friendship that starts or ends elsewhere (appendContact, removeGroup) shows here at once.
  const friendRow = row?.friend_id !== undefined;
  const wasFriendRow = useRef(friendRow);
  useEffect(() => {
    if (wasFriendRow.current === friendRow) return;
    wasFriendRow.current = friendRow;
    void load();
  }, [friendRow, load]);

  if (!Number.isInteger(id) || id <= 0) return <Navigate to={paths.contacts} replace />;
  const friendId = profile?.friend?.friend_id ?? row?.friend_id;
  if (params.get('edit') === 'remark' && profile && friendId)
    return <RemarkEditor profile={profile} friendId={friendId} onSaved={() => void load()} />;

  if (!profile) {
    return (
      <Page title={t('routes.contactDetail')}>
        {failed ? (
          <p className="form-note">{t('contact.notFound')}</p>
        ) : (
          <div className="page-loading" role="status">
            <span className="spinner" aria-hidden="true" />
            <span className="visually-hidden">{t('common.loading')}</span>
          </div>
        )}
      </Page>
    );
  }

  const isMe = profile.user_id === me;
  const isFriend = profile.is_friend === 1;
  // A group we share keeps its members' details and friend requests between them closed.
  const hidden = profile.profile === 0;
  const remark = profile.friend?.nickname ?? '';
  const name = remark || profile.realname;
  const canChat = isMe || isFriend || !needsFriendship(runMode);
  const canCall = callsOn && !isMe && (isFriend || !needsFriendship(runMode));
  const callPeer = { id: profile.user_id, name, avatar: profile.avatar };
  // The contact row follows pushes (a status set, going offline); the profile is what was asked.
  const facts: PresenceFacts = {
    status: row ? row.status : profile.status,
    is_online: profile.is_online === undefined ? undefined : (row?.is_online ?? profile.is_online),
    last_seen: row?.last_seen ?? profile.last_seen,
  };
  const online = (row?.is_online ?? profile.is_online) === 1;
  const lastSeen = online ? null : presenceText(t, facts, now);
  const status = liveStatus(facts.status, now);

  const handleDelete = async () => {
    const ok = await feedback
      .confirm({
        title: t('contact.deleteTitle'),
        content: t('contact.deleteConfirm', { name }),
        confirmText: t('contact.delete'),
        cancelText: t('common.cancel'),
        danger: true,
      })
      .catch(() => false);
    if (!ok) return;
    try {
      await api.friendDel({ id: profile.user_id }, { loading: true, quiet: true });
      feedback.toast(t('contact.deleted'));
      if (needsFriendship(runMode)) contacts.remove(String(profile.user_id));
      else void contacts.load().catch(() => {});
      void navigate(paths.contacts, { replace: true });
    } catch {
      // The request layer said why.
    }
  };

  return (
    <Page title={t('routes.contactDetail')}>
      <section className="profile-card profile-card-page" aria-labelledby="profile-name">
        <div className="profile-head">
          <Avatar src={profile.avatar} name={profile.realname} alt={t('me.avatarOf', { name })} size={64} />
          <div className="profile-text">
            <h2 className="profile-name" id="profile-name">
              {name}
              {online && <span className="tag tag-ok">{t('contacts.online')}</span>}
              {profile.blocked === 1 && <span className="tag tag-muted">{t('block.tag')}</span>}
            </h2>
            {remark && <p className="profile-sub">{t('contact.nickname', { name: profile.realname })}</p>}
            {lastSeen && <p className="profile-sub">{lastSeen}</p>}
            {hidden ? (
              <p className="profile-sub">{t('contact.profileHidden')}</p>
            ) : (
              <p className="profile-sub">
                {t('friend.account', { account: (isFriend && row?.account) || profile.account })}
              </p>
            )}
          </div>
        </div>
      </section>
      {!hidden && (
        <CellGroup>
          {isFriend && friendId !== undefined && (
            <Cell
              title={t('contact.setRemark')}
              value={remark || t('common.notSet')}
              to={withQuery(paths.contactDetail, { id: profile.user_id, edit: 'remark' })}
            />
          )}
          {(isFriend || isMe) && <Cell title={t('moments.album')} to={albumPath(profile.user_id)} />}
          {status && <Cell title={t('presence.status')} value={statusText(t, status, now, true)} />}
          <Cell title={t('profile.motto')} value={profile.motto || t('common.notSet')} />
          {profile.sex !== 2 && <Cell title={t('profile.sex')} value={t(`profile.sex${profile.sex}`)} />}
        </CellGroup>
      )}
      {!isMe && <BlockCell userId={profile.user_id} blocked={profile.blocked} />}
      {!isMe && (
        <CellGroup>
          <Cell title={t('report.action')} to={reportPath('user', profile.user_id)} />
        </CellGroup>
      )}
      {!isMe && !isFriend && !hidden && (
        <section className="cell-group profile-add" aria-label={t('friend.add')}>
          <AddFriendForm userId={profile.user_id} />
        </section>
      )}
      <div className="actions">
        {canChat && (
          <Link className="button button-primary" to={chatPath(isMe ? SELF_KEY : String(profile.user_id))}>
            {t('friend.message')}
          </Link>
        )}
        {canCall && (
          <>
            <button type="button" className="button button-default" onClick={() => startCall(callPeer, 0)}>
              {t('call.voice')}
            </button>
            <button type="button" className="button button-default" onClick={() => startCall(callPeer, 1)}>
              {t('call.video')}
            </button>
          </>
        )}
        {isFriend && (
          <button type="button" className="button button-danger" onClick={() => void handleDelete()}>
            {t('contact.delete')}
          </button>
        )}
      </div>
    </Page>
  );
}
