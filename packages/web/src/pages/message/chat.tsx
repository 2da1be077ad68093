import { messagePreview, REDO_TIME_DEFAULT_S } from '@sparrow/protocol';
import { BellMuteOutline, MoreOutline } from 'antd-mobile-icons';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { VirtuosoHandle } from 'react-virtuoso';
import { api } from '../../api';
import type { ChatRow } from '../../chat/engine';
import { messagePermissions, useChat } from '../../chat/use-chat';
import { ActionMenu, type MenuAction } from '../../components/ActionMenu';
import { Composer, type ComposerHandle } from '../../components/chat/Composer';
import type { Mentionable } from '../../components/chat/MentionPicker';
import { MessageList } from '../../components/chat/MessageList';
import { usePinsPats } from '../../components/chat/use-pins-pats';
import { useTyping } from '../../components/chat/use-typing';
import { SelectionBar } from '../../components/chat/SelectionBar';
import { useSelection } from '../../chat/use-selection';
import { useReactionsEdits } from '../../components/reactions/use-reactions-edits';
import { useReadReceipts } from '../../components/receipts/use-read-receipts';
import { feedback } from '../../components/feedback';
import { MediaGalleryProvider } from '../../components/message/gallery';
import { GroupAnnouncementBanner } from '../../components/group/GroupAnnouncementBanner';
import { useCloseWhenGroupGone } from '../../components/group/hooks';
import { ConnectionBanner } from '../../components/home/ConnectionBanner';
import { NavBar } from '../../components/NavBar';
import { chatSubtitle } from '../../components/presence/presence';
import { sendAttachments } from '../../components/composer/send-media';
import { AttachSheet } from '../../components/desk/AttachSheet';
import { useFileDrop } from '../../components/desk/use-file-drop';
import { translate } from '../../i18n';
import { chatBackgroundStyle, useChatBackground } from '../../lib/chat-background';
import { copyText } from '../../lib/clipboard';
import { contactIdOf, SELF_KEY, SYSTEM_KEY } from '../../lib/conversation-list';
import { useNow } from '../../lib/use-now';
import { paths, reportPath, withQuery } from '../../nav/paths';
import { favorites } from '../../stores/favorites';
import '../../components/chat/chat.css';

/** The chat (docs/product.md §2 `/pages/message/chat?id=<contact>`): back goes home (BACK_TO_HOME). */
export default function ChatPage() {
  const [params] = useSearchParams();
  const key = params.get('id') ?? '';
  if (!key) return <Navigate to={paths.home} replace />;
  if (key === SYSTEM_KEY) return <Navigate to={paths.friend} replace />;
  // `msg_id` opens the chat at that message (a search hit, a day of the history).
  return <Chat key={key} chatKey={key} focusId={Number(params.get('msg_id')) || null} />;
}

function Chat({ chatKey: key, focusId }: { chatKey: string; focusId: number | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const now = useNow();
  const chat = useChat(key, focusId);
  const { engine, snapshot, contact, isGroup, group, me, myRole, chatInfo, disbanded } = chat;
  // Removed from the group: the chat closes with a message. A disbanded group's stays, read-only.
  useCloseWhenGroupGone(isGroup && !disbanded ? key : null);
  const list = useRef<VirtuosoHandle>(null);
  const composer = useRef<ComposerHandle>(null);
  const [quote, setQuote] = useState<ChatRow | null>(null);
  const [menu, setMenu] = useState<{ row: ChatRow; x: number; y: number } | null>(null);
  const meId = me?.user_id ?? 0;
  const background = useChatBackground(key);
  const reactionsEdits = useReactionsEdits({
    engine,
    composer,
    me: meId,
    isGroup,
    myRole,
    reactionsOn: !isGroup || (group.info?.setting ?? contact?.setting)?.reaction !== 0,
    editTimeS: chatInfo?.editTime,
    readOnly: disbanded || chat.notFriend,
  });
  const readReceipts = useReadReceipts({
    chatKey: key,
    isGroup,
    groupOn: (group.info?.setting ?? contact?.setting)?.receipt !== 0,
    disbanded,
  });
  const pinsPats = usePinsPats(key, snapshot.rows, {
    engine,
    me: meId,
    now,
    myRole,
    membersMayPin: group.info?.setting.pin ?? (contact?.setting?.pin === 1 ? 1 : 0),
    blocked: chat.block,
    disbanded,
    reveal: () => list.current?.scrollToIndex({ index: 'LAST', behavior: 'auto' }),
  });
  // What I send, and each of mine once stored, shows at the bottom, whatever its kind.
  useEffect(
    () =>
      engine.onOwnMessage(() =>
        requestAnimationFrame(() => list.current?.scrollToIndex({ index: 'LAST', behavior: 'auto' })),
      ),
    [engine],
  );

  const name = key === SELF_KEY ? t('chat.selfTitle') : (contact?.displayName ?? '');
  const count = group.info?.member_count ?? contact?.member_count;
  const memberCount = isGroup && count ? t('chat.memberCount', { count }) : undefined;
  // A private chat's line under the title: the person's status, else 在线 / 最近在线 ….
  const subtitle = !isGroup && key !== SELF_KEY && contact?.is_group === 0 ? chatSubtitle(t, contact, now) : null;
  const typing = useTyping({
    chatKey: key,
    memberCount: count,
    members: group.members,
    canWrite: !chat.block && !disbanded,
  });

  const mentionable = useMemo<Mentionable[] | null>(
    () =>
      isGroup
        ? group.members
            .filter((m) => m.user_id !== meId)
            .map((m) => ({ id: m.user_id, name: m.nickname || m.userInfo.realname, avatar: m.userInfo.avatar }))
        : null,
    [isGroup, group.members, meId],
  );

  const handleSend = useCallback(
    (text: string, at: number[]) => {
      if (reactionsEdits.sendEdit(text)) return;
      engine.send({ type: 'text', content: text, at, ...(quote && { pid: quote.message.msg_id }) });
      setQuote(null);
    },
    [engine, quote, reactionsEdits],
  );

  const selection = useSelection(engine);
  const selecting = selection.ids !== null;
  const listSelection = useMemo(
    () => (selection.ids ? { ids: selection.ids, onToggle: selection.toggle } : null),
    [selection.ids, selection.toggle],
  );
  const handleMenu = useCallback(
    (row: ChatRow, x: number, y: number) => {
      if (!selecting) setMenu({ row, x, y });
    },
    [selecting],
  );
  const handleRetry = useCallback((id: string) => engine.retry(id), [engine]);
  const handleCancel = useCallback((id: string) => engine.cancel(id), [engine]);
  const handleReEdit = useCallback((text: string) => composer.current?.setText(text), []);
  const handleLoadOlder = useCallback(() => void engine.loadOlder(), [engine]);
  const handleLoadNewer = useCallback(() => void engine.loadNewer(), [engine]);

  // Files pasted or dropped wait in the confirm sheet; a drag of files over the chat shows where to let go.
  const canAttach = !chat.block && !selecting;
  const [attach, setAttach] = useState<File[] | null>(null);
  const handleAttach = useCallback((files: File[]) => setAttach((held) => [...(held ?? []), ...files]), []);
  const handleSendAttached = () => {
    const files = attach ?? [];
    setAttach(null);
    void sendAttachments(key, files);
  };
  const drop = useFileDrop(canAttach, handleAttach);

  /** ↑ in the empty box: the newest message of mine that 编辑 may still change, edited as the menu's 编辑 does. */
  const handleEditLast = () => {
    for (let i = snapshot.rows.length - 1; i >= 0; i--) {
      const row = snapshot.rows[i];
      if (!row?.mine || row.state !== 'sent') continue;
      const edit = reactionsEdits.menuActions(row).find((a) => a.key === 'edit');
      if (edit) {
        edit.onSelect();
        return true;
      }
    }
    return false;
  };

  // A chat opened from the keyboard (the quick switcher, Alt+↑/↓) takes the keys to its input box.
  const arrival = useLocation().state as { focusComposer?: boolean } | null;
  const arrivedByKeyboard = arrival?.focusComposer === true;
  useEffect(() => {
    if (arrivedByKeyboard) composer.current?.focus();
  }, [arrivedByKeyboard]);

  // Escape with the keyboard outside the input bar still closes its emoji or "+" panel.
  useEffect(() => {
    const handleKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented && composer.current?.closePanels()) e.preventDefault();
    };
    window.addEventListener('keydown', handleKey);
    return () => window.removeEventListener('keydown', handleKey);
  }, []);

  const menuActions = (row: ChatRow): MenuAction[] => {
    const m = row.message;
    if (row.state !== 'sent') {
      return [
        ...(m.type === 'text' ? [{ key: 'copy', label: t('chat.copy'), onSelect: () => void copy(m.content) }] : []),
        ...(row.state === 'failed' || row.state === 'rejected'
          ? [{ key: 'discard', label: t('chat.delete'), danger: true, onSelect: () => engine.discard(m.id) }]
          : []),
      ];
    }
    const can = messagePermissions(m, {
      me: meId,
      isGroup,
      myRole,
      redoTimeS: chatInfo?.redoTime ?? REDO_TIME_DEFAULT_S,
      dbDelMsg: (chatInfo?.dbDelMsg ?? 1) === 1,
      now: Date.now(),
      readOnly: disbanded,
    });
    const actions: MenuAction[] = [];
    if (can.copy) actions.push({ key: 'copy', label: t('chat.copy'), onSelect: () => void copy(m.content) });
    if (can.forward) {
      actions.push({
        key: 'forward',
        label: t('chat.forward'),
        onSelect: () => void navigate(withQuery(paths.userSelection, { mode: 'forward', msg_id: m.msg_id })),
      });
      actions.push({
        key: 'favorite',
        label: t('favorite.add'),
        onSelect: () => void favorites.save({ msg_ids: [m.msg_id] }),
      });
    }
    if (can.forward)
      actions.push({ key: 'select', label: t('multiSelect.multiSelect'), onSelect: () => selection.start(m.msg_id) });
    if (can.quote) {
      actions.push({
        key: 'quote',
        label: t('chat.quote'),
        onSelect: () => {
          setQuote(row);
          composer.current?.focus();
        },
      });
    }
    actions.push(...reactionsEdits.menuActions(row));
    actions.push(...pinsPats.menuActions(row));
    if (m.type !== 'event' && m.fromUser.id !== meId)
      actions.push({
        key: 'report',
        label: t('report.action'),
        onSelect: () => void navigate(reportPath('message', m.msg_id)),
      });
    if (can.withdraw)
      actions.push({ key: 'withdraw', label: t('chat.withdraw'), onSelect: () => void withdraw(m.msg_id) });
    if (can.deleteForAll)
      actions.push({
        key: 'delete',
        label: t('chat.deleteForAll'),
        danger: true,
        onSelect: () => void deleteForAll(m.msg_id),
      });
    if (can.deleteForMe)
      actions.push({
        key: 'hide',
        label: t('chat.deleteForMe'),
        danger: true,
        onSelect: () => void deleteForMe(m.msg_id),
      });
    return actions;
  };

  const copy = async (text: string) => {
    feedback.toast((await copyText(text)) ? t('chat.copied') : t('chat.copyFailed'));
  };
  const withdraw = async (msgId: number) => {
    try {
      await api.undoMessage({ id: msgId }, { quiet: true });
      await engine.refresh(msgId);
    } catch {
      // The request layer said why (too late, not yours).
    }
  };
  const deleteForAll = async (msgId: number) => {
    const ok = await feedback
      .confirm({
        content: t('chat.deleteForAllConfirm'),
        confirmText: t('chat.delete'),
        cancelText: t('common.cancel'),
      })
      .catch(() => false);
    if (!ok) return;
    try {
      await api.delMessage({ id: msgId }, { quiet: true });
      engine.remove(msgId);
    } catch {
      // Shown by the request layer.
    }
  };
  const deleteForMe = async (msgId: number) => {
    try {
      await api.removeMessage({ id: msgId }, { quiet: true });
      engine.remove(msgId);
    } catch {
      // Shown by the request layer.
    }
  };

  const quoted = quote
    ? {
        name: quote.mine ? t('chat.me') : quote.message.fromUser.displayName || quote.message.fromUser.realname,
        content: messagePreview(quote.message, translate),
      }
    : null;

  // A file on its way offers nothing to do with it but cancel, next to its bubble.
  const menuItems = menu ? menuActions(menu.row) : [];

  return (
    <div className="page chat-page" {...drop.handlers}>
      <NavBar
        title={selecting ? t('multiSelect.selectedCount', { count: selection.ids?.size ?? 0 }) : name}
        titleSuffix={selecting ? undefined : memberCount}
        subtitle={selecting ? undefined : (typing.title ?? subtitle)}
        live={!selecting}
        back={!selecting}
        right={
          selecting ? (
            <button type="button" className="navbar-action" onClick={selection.cancel}>
              {t('multiSelect.cancel')}
            </button>
          ) : (
            <>
              {contact?.is_notice === 0 && (
                <BellMuteOutline className="navbar-mute" aria-label={t('home.muted')} role="img" />
              )}
              {!disbanded && (
                <button
                  type="button"
                  className="navbar-back navbar-icon"
                  aria-label={isGroup ? t('chat.groupInfo') : t('chat.chatInfo')}
                  onClick={() => void navigate(withQuery(paths.chatDetail, { id: key }))}
                >
                  <MoreOutline aria-hidden="true" />
                </button>
              )}
            </>
          )
        }
      />
      <ConnectionBanner />
      <main id="main" className="chat-main" style={chatBackgroundStyle(background.url)}>
        {pinsPats.bar}
        {isGroup && !disbanded && <GroupAnnouncementBanner groupId={key} />}
        {snapshot.status === 'error' && snapshot.rows.length > 0 && (
          <div className="chat-load-failed">
            <span>{t('chat.loadFailed')}</span>
            <button type="button" className="chat-load-retry" onClick={() => void engine.start()}>
              {t('common.retry')}
            </button>
          </div>
        )}
        {/* Messages of mine on their way show even when the history could not load (offline). */}
        {snapshot.status === 'ready' || (snapshot.status === 'error' && snapshot.rows.length > 0) ? (
          <MediaGalleryProvider rows={snapshot.rows}>
            <MessageList
              ref={list}
              label={t('chat.history', { name })}
              snapshot={snapshot}
              isGroup={isGroup}
              readMarks={!isGroup && key !== SELF_KEY}
              receiptsOf={readReceipts.receiptsOf}
              onReadList={readReceipts.onReadList}
              me={meId}
              now={now}
              onLoadOlder={handleLoadOlder}
              onLoadNewer={handleLoadNewer}
              onMenu={handleMenu}
              onRetry={handleRetry}
              onCancel={handleCancel}
              onReEdit={handleReEdit}
              onReact={reactionsEdits.onReact}
              onReactors={reactionsEdits.onReactors}
              onPat={pinsPats.onPat}
              selection={listSelection}
            />
          </MediaGalleryProvider>
        ) : snapshot.status === 'error' ? (
          <div className="chat-status">
            <p>{t('chat.loadFailed')}</p>
            <button
              type="button"
              className="button button-default chat-status-button"
              onClick={() => void engine.start()}
            >
              {t('common.retry')}
            </button>
          </div>
        ) : (
          <div className="chat-status" role="status">
            <span className="spinner" aria-hidden="true" />
            <span className="visually-hidden">{t('common.loading')}</span>
          </div>
        )}
        {selecting ? (
          <SelectionBar
            count={selection.ids?.size ?? 0}
            onForwardEach={() => selection.forward('each')}
            onForwardMerge={() => selection.forward('merge')}
            onFavorite={() => void selection.favorite()}
            onDelete={() => void selection.remove()}
          />
        ) : (
          <Composer
            ref={composer}
            draftKey={key}
            blocked={chat.block}
            blockedAction={
              chat.notFriend ? (
                <Link to={withQuery(paths.contactDetail, { id: contactIdOf(key) })}>{t('chat.sendFriendRequest')}</Link>
              ) : undefined
            }
            quote={reactionsEdits.editBar ?? quoted}
            onCancelQuote={reactionsEdits.editBar ? reactionsEdits.cancelEdit : () => setQuote(null)}
            mentionable={mentionable}
            canMentionAll={isGroup && (myRole === 1 || myRole === 2)}
            onSend={handleSend}
            onAttach={handleAttach}
            onEditLast={handleEditLast}
            onInput={typing.onInput}
            onStop={typing.onStop}
          />
        )}
        {drop.over && (
          <div className="chat-drop" aria-hidden="true">
            <span className="chat-drop-text">{t('desk.dropHere')}</span>
          </div>
        )}
      </main>
      {menu && menuItems.length > 0 && (
        <ActionMenu
          anchor={{ x: menu.x, y: menu.y }}
          actions={menuItems}
          label={t('chat.messageMenu')}
          onClose={() => setMenu(null)}
          header={reactionsEdits.menuHeader(menu.row, () => setMenu(null))}
        />
      )}
      {reactionsEdits.sheets}
      {readReceipts.sheet}
      {attach && attach.length > 0 && (
        <AttachSheet to={name} files={attach} onSend={handleSendAttached} onCancel={() => setAttach(null)} />
      )}
    </div>
  );
}
