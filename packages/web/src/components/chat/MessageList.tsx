import { REEDIT_WINDOW_MS } from '@sparrow/protocol';
import { CloseOutline, ExclamationCircleFill } from 'antd-mobile-icons';
import { forwardRef, memo, useCallback, useEffect, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { ChatRow, EngineSnapshot } from '../../chat/engine';
import { contactKey } from '../../lib/conversation-list';
import { formatSeparator, needsTimeSeparator } from '../../lib/relative-time';
import { useLongPress } from '../../lib/use-long-press';
import { paths, withQuery } from '../../nav/paths';
import { useContacts } from '../../stores/contacts';
import { senderName, usePeople } from '../../stores/people';
import { useRemark } from '../../stores/remarks';
import { useSession } from '../../stores/session';
import { Avatar } from '../Avatar';
import { LoadingRow } from '../LoadingRow';
import { MessageContent } from './MessageContent';
import { PendingBubble } from './PendingBubble';
import { ownPatWithdrawable } from '../../chat/use-pins';
import { useDoubleTap } from './use-double-tap';
import { ReactionChips } from '../reactions/ReactionChips';
import { ReadCount } from '../receipts/ReadCount';
import { SelectableRow } from './SelectableRow';

export interface RowHandlers {
  onMenu(row: ChatRow, x: number, y: number): void;
  onRetry(id: string): void;
  /** Stops a file on its way, or gives up a failed file or card. */
  onCancel(id: string): void;
  onReEdit(text: string): void;
  /** A tap on a reaction chip: my reaction with that emoji on (1) or taken back (0). */
  onReact?(row: ChatRow, emoji: string, on: 0 | 1): void;
  /** A long press on a reaction chip: who reacted. */
  onReactors?(row: ChatRow, emoji: string): void;
  /** A double tap on a sender's avatar: pat them (拍一拍); absent where no one may be patted. */
  onPat?(row: ChatRow): void;
  /** A tap on a message's read count (N人未读): who read it. */
  onReadList?(msgId: number): void;
}

interface RowProps extends RowHandlers {
  row: ChatRow;
  /** sendTime of the row above, for the time line. */
  previousTime: number | undefined;
  showName: boolean;
  /** Private chats: whether the peer has read this message of mine. */
  read: boolean | null;
  /** Groups whose read receipts show: the group (`group-<n>`) this message of mine is counted in. */
  receiptsOf: string | null;
  /** The message the chat was opened at: marked for a moment, and named the current one. */
  focus: 'marked' | 'current' | null;
  me: number;
  now: number;
}

/**
 * A sender's face as it is now: mine from my session, a contact's from my list (both follow an
 * avatar changed elsewhere, pushed as appendContact), a group member's as profileChanged told it,
 * else the one the message was presented with.
 */
function useFace(fromUser: ChatRow['message']['fromUser'], mine: boolean): string {
  const id = fromUser.id;
  const own = useSession((s) => (mine ? s.user?.avatar : undefined));
  const listed = useContacts((s) => (!mine && typeof id === 'number' ? s.rows[contactKey(id)]?.avatar : undefined));
  const pushed = usePeople((s) => (!mine && typeof id === 'number' ? s.byId[id]?.avatar : undefined));
  return own || listed || pushed || fromUser.avatar;
}

/**
 * A sender's name as it is now: my remark for them first (the one rule of `memberName`), else a
 * group nickname as it was given, else their own name as profileChanged last told it.
 */
function useSenderName(fromUser: ChatRow['message']['fromUser']): string {
  const id = fromUser.id;
  const now = usePeople((s) => (typeof id === 'number' ? s.byId[id] : undefined));
  return useRemark(id) || senderName(fromUser, now);
}

const MessageRow = memo(function MessageRow({
  row,
  previousTime,
  showName,
  read,
  receiptsOf,
  focus,
  me,
  now,
  onMenu,
  onRetry,
  onCancel,
  onReEdit,
  onReact,
  onReactors,
  onPat,
  onReadList,
}: RowProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const m = row.message;
  const press = useLongPress((x, y) => onMenu(row, x, y));
  // A group's robot (群机器人) or a bot (机器人) is no person: no profile to open, no one to pat.
  const robot = m.fromUser.robot === 1;
  const senderId = typeof m.fromUser.id === 'number' && !robot ? m.fromUser.id : undefined;
  // A tap on someone's avatar opens their profile, a double tap pats them.
  const avatarTap = useDoubleTap(
    senderId !== undefined && !row.mine
      ? () => void navigate(withQuery(paths.contactDetail, { id: senderId }))
      : undefined,
    onPat && senderId !== undefined ? () => onPat(row) : undefined,
  );
  const face = useFace(m.fromUser, row.mine);
  const senderNow = useSenderName(m.fromUser);
  const marked = focus === 'marked';
  // Keyboard and screen reader land on the message the chat was opened at.
  const bubble = useCallback(
    (el: HTMLElement | null) => {
      if (el && marked) el.focus({ preventScroll: true });
    },
    [marked],
  );
  const itemClass = `chat-item${marked ? ' chat-item-focus' : ''}`;
  const current = focus === null ? undefined : true;
  const separator = needsTimeSeparator(previousTime, m.sendTime) ? (
    <p className="chat-time">
      <time dateTime={new Date(m.sendTime).toISOString()}>{formatSeparator(m.sendTime, now, t, i18n.language)}</time>
    </p>
  ) : null;

  if (m.type === 'event') {
    const line = m.extends;
    const original = line.event === 'undo' ? (line.original ?? '') : '';
    const canReEdit =
      line.event === 'undo' &&
      line.user_id === me &&
      original !== '' &&
      line.undone_at !== undefined &&
      now - line.undone_at < REEDIT_WINDOW_MS;
    // My own pat line offers 撤回 on a long press while it may still be withdrawn.
    const withdrawable = ownPatWithdrawable(m, me, now);
    return (
      <div className={itemClass} aria-current={current}>
        {separator}
        <p
          className="chat-event"
          ref={bubble}
          tabIndex={withdrawable ? 0 : marked ? -1 : undefined}
          {...(withdrawable && press)}
        >
          {m.content}
          {canReEdit && (
            <button type="button" className="chat-reedit" onClick={() => onReEdit(original)}>
              {t('chat.reEdit')}
            </button>
          )}
        </p>
      </div>
    );
  }

  const name = row.mine ? t('chat.me') : senderNow;
  const quote = m.extends.quote;
  const says = t('chat.says', { name: robot ? t('robots.sender', { name }) : name });
  return (
    <div className={itemClass} aria-current={current}>
      {separator}
      <div className={`msg${row.mine ? ' msg-mine' : ''}`}>
        {senderId !== undefined && !row.mine ? (
          <Link
            className="msg-avatar"
            to={withQuery(paths.contactDetail, { id: senderId })}
            aria-label={t('chat.profileOf', { name })}
            tabIndex={-1}
            onClick={avatarTap}
          >
            <Avatar src={face} name={name} alt="" size={40} />
          </Link>
        ) : (
          <span className="msg-avatar" aria-hidden="true" onClick={avatarTap}>
            <Avatar src={face} name={m.fromUser.realname || name} alt="" size={40} />
          </span>
        )}
        <div className="msg-body">
          {/* A bot in a private chat (机器人) says what it is too, as a group's robot does. */}
          {(showName || robot) && !row.mine && (
            <p className="msg-name" aria-hidden="true">
              {name}
              {robot && <span className="tag msg-robot-tag">{t('robots.tag')}</span>}
            </p>
          )}
          <div className="msg-line">
            {row.state === 'sending' && row.progress === null && (
              <span className="spinner msg-state" role="status" aria-label={t('chat.sending')} />
            )}
            {row.state === 'failed' && (
              <button type="button" className="msg-retry" aria-label={t('chat.resend')} onClick={() => onRetry(m.id)}>
                <ExclamationCircleFill aria-hidden="true" />
              </button>
            )}
            {row.preview && (row.progress !== null || row.state === 'failed') && (
              <button
                type="button"
                className="msg-cancel"
                aria-label={row.state === 'failed' ? t('media.pending.discard') : t('media.pending.cancel')}
                onClick={() => onCancel(m.id)}
              >
                <CloseOutline aria-hidden="true" />
              </button>
            )}
            {read !== null && row.state === 'sent' && (
              <span className={`msg-read${read ? ' msg-read-done' : ''}`}>
                {read ? t('chat.read') : t('chat.unread')}
              </span>
            )}
            {receiptsOf && onReadList && row.mine && row.state === 'sent' && m.msg_id > 0 && m.type !== 'webrtc' && (
              <ReadCount gid={receiptsOf} msgId={m.msg_id} onOpen={onReadList} />
            )}
            <div className={`bubble bubble-${m.type}`} tabIndex={0} ref={bubble} {...press}>
              <span className="visually-hidden">{says}</span>
              {row.preview ? <PendingBubble row={row} preview={row.preview} /> : <MessageContent message={m} />}
            </div>
          </div>
          {m.edited !== undefined && <p className="msg-edited">{t('edit.edited')}</p>}
          {quote && (
            <p className="msg-quote">
              {quote.realname ? `${quote.realname}: ` : ''}
              {quote.content}
            </p>
          )}
          {m.reactions && m.reactions.length > 0 && onReact && onReactors && (
            <ReactionChips
              reactions={m.reactions}
              onToggle={(emoji, on) => onReact(row, emoji, on)}
              onWho={(emoji) => onReactors(row, emoji)}
            />
          )}
          {row.state === 'held' && <p className="msg-held">{t('chat.held')}</p>}
          {row.state === 'rejected' && <p className="msg-failure">{t('chat.heldRejected')}</p>}
          {row.state === 'failed' && (
            <p className="msg-failure">
              {row.refusal === null
                ? t('chat.waitingConnection')
                : row.refusal
                  ? t('chat.refused', { reason: row.refusal })
                  : t('chat.refusedUnknown')}
            </p>
          )}
        </div>
      </div>
    </div>
  );
});

interface ListProps extends RowHandlers {
  snapshot: EngineSnapshot;
  isGroup: boolean;
  /** Private chats show read marks on my messages. */
  readMarks: boolean;
  /** A group whose read receipts show under my messages (`group-<n>`), else null. */
  receiptsOf?: string | null;
  me: number;
  now: number;
  onLoadOlder(): void;
  /** Opened at an older message: the page below the newest row. */
  onLoadNewer(): void;
  label: string;
  /** Multi-select (多选): the msg_ids chosen, and what a tap on a row does; null when not selecting. */
  selection?: { ids: ReadonlySet<number>; onToggle(msgId: number): void } | null;
}

/** How long the message a chat was opened at stays marked. */
export const FOCUS_MARK_MS = 4000;

/**
 * Within this many px of the end the list counts as at the bottom and follows what arrives: a row
 * drawn taller than guessed, or a picture that loads late, must not leave it behind.
 */
export const AT_BOTTOM_PX = 120;

interface ListContext {
  loadingOlder: boolean;
  hasOlder: boolean;
  loadingNewer: boolean;
}

function Top({ context }: { context: ListContext }) {
  const { t } = useTranslation();
  if (context.loadingOlder) return <LoadingRow />;
  return <div className="chat-top">{context.hasOlder ? '' : t('chat.noMore')}</div>;
}

/** Below the rows while newer pages load, when the chat was opened at an older message. */
function Bottom({ context }: { context: ListContext }) {
  return context.loadingNewer ? <LoadingRow /> : null;
}

/**
 * The conversation, newest at the bottom, virtualized: only the rows near the viewport are in
 * the DOM. Older pages go in front through firstItemIndex, so the rows on screen stay put. Opened
 * at a message (snapshot.focus), the list starts with it centred and marked, and loads newer
 * pages at the bottom until the newest; only then does it follow new messages down.
 */
export const MessageList = forwardRef(function MessageList(
  {
    snapshot,
    isGroup,
    readMarks,
    receiptsOf = null,
    me,
    now,
    onLoadOlder,
    onLoadNewer,
    label,
    selection,
    ...handlers
  }: ListProps,
  ref: Ref<VirtuosoHandle>,
) {
  const { t } = useTranslation();
  const { rows, firstItemIndex, peerReadTo, focus } = snapshot;
  const focusIndex = focus ? rows.findIndex((r) => r.message.msg_id === focus.msgId) : -1;
  const [marked, setMarked] = useState<number | null>(null);
  const list = useRef<VirtuosoHandle | null>(null);
  const setList = useCallback(
    (handle: VirtuosoHandle | null) => {
      list.current = handle;
      if (typeof ref === 'function') ref(handle);
      else if (ref) ref.current = handle;
    },
    [ref],
  );
  // Where the reader is, from the scroll itself: opened at a message, not at the end.
  const atBottom = useRef(focus === null);
  const focusAt = useRef(focusIndex);
  focusAt.current = focusIndex;
  useEffect(() => {
    if (!focus) return;
    atBottom.current = false;
    setMarked(focus.msgId);
    const timer = setTimeout(() => setMarked(null), FOCUS_MARK_MS);
    // The first placement guesses the heights of rows not drawn yet; once drawn, centre it again.
    const frame = requestAnimationFrame(() => {
      if (focusAt.current >= 0) list.current?.scrollToIndex({ index: focusAt.current, align: 'center' });
    });
    return () => {
      clearTimeout(timer);
      cancelAnimationFrame(frame);
    };
  }, [focus]);
  // A page that arrives below rows of older history is not followed down, even the page that
  // reaches the newest; what arrives after that is.
  const detached = useRef(snapshot.hasNewer);
  useEffect(() => {
    detached.current = snapshot.hasNewer;
  }, [snapshot.hasNewer]);

  // At the bottom the list follows every new row; scrolled up, what others send is counted on a
  // pill that jumps to the first of it. A row of mine brings the list down wherever it was.
  const [unseen, setUnseen] = useState<{ count: number; firstKey: string } | null>(null);
  const lastKey = useRef(rows.at(-1)?.key);
  const endMine = rows.at(-1)?.mine === true;
  useEffect(() => {
    const previous = lastKey.current;
    lastKey.current = rows.at(-1)?.key;
    if (previous === undefined || previous === lastKey.current || detached.current) return;
    const from = rows.findIndex((r) => r.key === previous);
    if (from < 0) return;
    const added = rows.slice(from + 1);
    if (atBottom.current || added.some((r) => r.mine)) {
      setUnseen(null);
      return;
    }
    const theirs = added.filter((r) => r.message.type !== 'event');
    const first = theirs[0];
    if (first) setUnseen((u) => ({ count: (u?.count ?? 0) + theirs.length, firstKey: u?.firstKey ?? first.key }));
  }, [rows]);
  // A row that grows once drawn (a picture loading late) while the end was in view keeps the end
  // in view; rows drawn above, as older pages arrive or the list is scrolled up, do not pull it down.
  const scroller = useRef<HTMLElement | null>(null);
  const height = useRef(0);
  // Rows that arrive without a scroll leave the reader's place as it was.
  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < AT_BOTTOM_PX;
    if (atBottom.current) setUnseen(null);
  }, []);
  const resized = useRef<ResizeObserver | null>(null);
  const setScroller = useCallback(
    (el: HTMLElement | Window | null) => {
      scroller.current?.removeEventListener('scroll', onScroll);
      resized.current?.disconnect();
      resized.current = null;
      const next = el instanceof HTMLElement ? el : null;
      scroller.current = next;
      if (!next) return;
      next.addEventListener('scroll', onScroll, { passive: true });
      if (typeof ResizeObserver === 'undefined') return;
      // Whatever grows while the reader is at the end keeps the end in view, rows or not: the
      // line above the rows as older pages load, a footer, a row measured late.
      resized.current = new ResizeObserver(() => {
        if (!atBottom.current || detached.current) return;
        if (next.scrollHeight - next.scrollTop - next.clientHeight > 1) next.scrollTop = next.scrollHeight;
      });
      // The scroller holds Virtuoso's viewport, which holds the header, the rows and the footer.
      for (const child of Array.from(next.children)) {
        resized.current.observe(child);
        for (const part of Array.from(child.children)) resized.current.observe(part);
      }
    },
    [onScroll],
  );
  const onHeight = useCallback((next: number) => {
    const el = scroller.current;
    const before = height.current;
    height.current = next;
    if (!el || detached.current || next <= before) return;
    if (before - (el.scrollTop + el.clientHeight) < AT_BOTTOM_PX)
      list.current?.scrollToIndex({ index: 'LAST', align: 'end' });
  }, []);
  const jumpToUnseen = () => {
    const index = unseen ? rows.findIndex((r) => r.key === unseen.firstKey) : -1;
    setUnseen(null);
    list.current?.scrollToIndex({ index: index >= 0 ? index : 'LAST', align: index >= 0 ? 'start' : 'end' });
  };

  return (
    <section className="chat-list" aria-label={label}>
      {focus && focusIndex >= 0 && (
        <p className="visually-hidden" role="status">
          {t('chat.openedAt')}
        </p>
      )}
      <Virtuoso
        key={focus ? `at-${focus.seq}` : 'newest'}
        ref={setList}
        className="chat-scroller"
        data={rows}
        firstItemIndex={firstItemIndex}
        initialTopMostItemIndex={
          focusIndex >= 0 ? { index: focusIndex, align: 'center' } : Math.max(0, rows.length - 1)
        }
        alignToBottom
        followOutput={() => ((atBottom.current || endMine) && !detached.current ? 'auto' : false)}
        totalListHeightChanged={onHeight}
        scrollerRef={setScroller}
        startReached={onLoadOlder}
        endReached={onLoadNewer}
        increaseViewportBy={{ top: 600, bottom: 200 }}
        context={{
          loadingOlder: snapshot.loadingOlder,
          hasOlder: snapshot.hasOlder,
          loadingNewer: snapshot.loadingNewer,
        }}
        components={{ Header: Top, Footer: Bottom }}
        computeItemKey={(_, row) => row.key}
        itemContent={(index, row) => {
          const previous = rows[index - firstItemIndex - 1];
          const id = row.message.msg_id;
          const item = (
            <MessageRow
              row={row}
              previousTime={previous?.message.sendTime}
              showName={isGroup}
              read={readMarks && row.mine && row.message.type !== 'webrtc' ? id > 0 && id <= peerReadTo : null}
              receiptsOf={receiptsOf}
              focus={id > 0 && id === marked ? 'marked' : id > 0 && id === focus?.msgId ? 'current' : null}
              me={me}
              now={now}
              {...handlers}
            />
          );
          if (!selection) return item;
          return (
            <SelectableRow row={row} checked={selection.ids.has(id)} onToggle={selection.onToggle}>
              {item}
            </SelectableRow>
          );
        }}
      />
      {unseen && (
        <button type="button" className="chat-new-pill" onClick={jumpToUnseen}>
          {t('chat.newMessages', { count: unseen.count })}
        </button>
      )}
    </section>
  );
});
