import type { MomentComment, MomentNotice, MomentPost, UploadResult } from '@sparrow/protocol';
import { CameraOutline, MoreOutline, PictureOutline, RedoOutline, SetOutline } from 'antd-mobile-icons';
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Virtuoso, type Components } from 'react-virtuoso';
import { api } from '../../api';
import { feedback } from '../../app/feedback';
import { momentPaths } from '../../app/moment-paths';
import { Avatar } from '../../components/Avatar';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { PostItem } from '../../components/moments/PostItem';
import { usePullToRefresh, type PullPhase } from '../../components/moments/use-pull-to-refresh';
import '../../components/moments/moments.css';
import type { MessageKey } from '../../i18n/keys';
import { formatRelative } from '../../lib/relative-time';
import { useNow } from '../../lib/use-now';
import { moments, useMoments } from '../../stores/moments';
import { useSession } from '../../stores/session';

type Status = 'loading' | 'ready' | 'error';

interface ListContext {
  header: ReactNode;
  footer: ReactNode;
}

/**
 * The list's header and footer as components of a stable identity, their content passed in
 * `context`: a component made anew on each render would remount the cover under a finger
 * dragging it, and the browser stops telling a touch whose target left the page.
 */
const LIST_PARTS: Components<MomentPost, ListContext> = {
  Header: ({ context }) => context.header,
  Footer: ({ context }) => context.footer,
};

const PULL_TEXT: Record<PullPhase, MessageKey | null> = {
  idle: null,
  pulling: 'moments.pullToRefresh',
  armed: 'moments.releaseToRefresh',
  refreshing: 'moments.refreshing',
};

interface Draft {
  post: MomentPost;
  replyTo?: MomentComment;
}

/** 朋友圈 (`/pages/compass/moments`): my feed, or with `?user_id=` a person's album. */
export default function MomentsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const albumOf = Number(params.get('user_id')) || undefined;
  const me = useSession((s) => s.user);
  const myId = me?.user_id ?? 0;
  const isAlbum = albumOf !== undefined && albumOf !== myId;
  const notices = useMoments((s) => s.count);
  const version = useMoments((s) => s.version);
  const now = useNow(60_000);
  const [posts, setPosts] = useState<MomentPost[]>([]);
  const [status, setStatus] = useState<Status>('loading');
  const [more, setMore] = useState(true);
  const [cover, setCover] = useState('');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [text, setText] = useState('');
  const [noticeList, setNoticeList] = useState<MomentNotice[] | null>(null);
  const [menu, setMenu] = useState(false);
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const loadingMore = useRef(false);
  const coverInput = useRef<HTMLInputElement>(null);

  const body = useCallback(
    (lastId: number) => ({ last_id: lastId, ...(albumOf !== undefined && { user_id: albumOf }) }),
    [albumOf],
  );

  /** The first page again; answers whether it came. */
  const reload = useCallback(async () => {
    try {
      const first = await api.momentsList(body(0), { silent: true });
      setPosts(first);
      setMore(first.length > 0);
      setStatus('ready');
      if (albumOf === undefined) moments.seen();
      return true;
    } catch {
      setStatus((s) => (s === 'ready' ? s : 'error'));
      return false;
    }
  }, [albumOf, body]);

  const refresh = useCallback(async () => {
    if (!(await reload())) feedback.toast(t('moments.refreshFailed'));
  }, [reload, t]);
  const pull = usePullToRefresh(scroller, refresh);

  useEffect(() => {
    void reload();
  }, [reload, version]);

  useEffect(() => {
    void moments.refresh();
    // An album shows its owner's cover; the cover stays blank when it cannot be read.
    setCover('');
    api
      .momentsSetting(isAlbum ? { user_id: albumOf } : {}, { silent: true })
      .then((s) => setCover(s.cover))
      .catch(() => undefined);
  }, [isAlbum, albumOf]);

  const loadMore = async () => {
    const last = posts[posts.length - 1];
    if (!last || !more || loadingMore.current) return;
    loadingMore.current = true;
    try {
      const page = await api.momentsList(body(last.id), { silent: true });
      setPosts((p) => [...p, ...page.filter((x) => !p.some((y) => y.id === x.id))]);
      setMore(page.length > 0);
    } catch {
      // The end of the list stays where it is; scrolling there again asks again.
    } finally {
      loadingMore.current = false;
    }
  };

  const replace = (next: MomentPost) => setPosts((p) => p.map((x) => (x.id === next.id ? next : x)));

  const onLike = useCallback(
    async (post: MomentPost) => {
      const liked = post.likes.some((l) => l.user_id === myId);
      replace(await (liked ? api.momentsUnlike({ id: post.id }) : api.momentsLike({ id: post.id })));
    },
    [myId],
  );

  const onDelete = useCallback(
    async (post: MomentPost) => {
      const yes = await feedback.confirm({
        content: t('moments.deleteConfirm'),
        confirmText: t('moments.delete'),
        cancelText: t('common.cancel'),
      });
      if (!yes) return;
      await api.momentsDel({ id: post.id });
      setPosts((p) => p.filter((x) => x.id !== post.id));
    },
    [t],
  );

  const onComment = useCallback((post: MomentPost, replyTo?: MomentComment) => {
    setDraft(replyTo ? { post, replyTo } : { post });
    setText('');
  }, []);

  const onCommentMenu = useCallback(
    async (post: MomentPost, comment: MomentComment) => {
      const mayDelete = comment.user.user_id === myId || post.user.user_id === myId;
      if (!mayDelete) {
        onComment(post, comment);
        return;
      }
      const yes = await feedback.confirm({
        content: t('moments.deleteCommentConfirm'),
        confirmText: t('moments.delete'),
        cancelText: t('common.cancel'),
      });
      if (!yes) {
        if (comment.user.user_id !== myId) onComment(post, comment);
        return;
      }
      await api.momentsDelComment({ id: comment.id });
      setPosts((p) =>
        p.map((x) => (x.id === post.id ? { ...x, comments: x.comments.filter((c) => c.id !== comment.id) } : x)),
      );
    },
    [myId, onComment, t],
  );

  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (!draft || !text.trim()) return;
    const comment = await api.momentsComment({
      id: draft.post.id,
      content: text.trim(),
      ...(draft.replyTo && { reply_to: draft.replyTo.id }),
    });
    setPosts((p) => p.map((x) => (x.id === draft.post.id ? { ...x, comments: [...x.comments, comment] } : x)));
    setDraft(null);
    setText('');
  };

  const openNotices = async () => {
    try {
      setNoticeList(await api.momentsNotices({}));
      await moments.readNotices();
    } catch {
      // The request layer has shown why.
    }
  };

  const changeCover = async (file: File | undefined) => {
    if (!file) return;
    const form = new FormData();
    form.append('file', file, file.name);
    const up = (await api.uploadFile(form, { loading: true })) as UploadResult;
    setCover((await api.momentsSetCover({ file_id: up.file_id })).cover);
  };

  const albumName = isAlbum ? posts[0]?.user.displayName : undefined;
  const header = (
    <div className={`moment-header${isAlbum ? ' moment-header-album' : ''}`}>
      {isAlbum ? (
        <div
          className="moment-cover"
          style={cover ? { backgroundImage: `url(${cover})` } : undefined}
          {...(cover && albumName ? { role: 'img', 'aria-label': t('moments.coverOf', { name: albumName }) } : {})}
        />
      ) : (
        <button
          type="button"
          className="moment-cover"
          style={cover ? { backgroundImage: `url(${cover})` } : undefined}
          onClick={() => coverInput.current?.click()}
          aria-label={t('moments.changeCover')}
        />
      )}
      <input
        ref={coverInput}
        type="file"
        accept="image/*"
        hidden
        onChange={(e) => void changeCover(e.target.files?.[0])}
      />
      {!isAlbum && me && (
        <div className="moment-me">
          <span className="moment-me-name">{me.displayName || me.realname}</span>
          <Avatar src={me.avatar} name={me.realname} alt="" size={64} />
        </div>
      )}
      {!isAlbum && notices > 0 && (
        <button type="button" className="moment-notices-entry" onClick={() => void openNotices()}>
          {t('moments.newNotices', { count: notices })}
        </button>
      )}
    </div>
  );

  const title = t('routes.moments');
  const pullText = PULL_TEXT[pull.phase];
  if (noticeList)
    return (
      <Page title={t('moments.notices')} onBack={() => setNoticeList(null)}>
        {noticeList.length === 0 ? (
          <EmptyState
            icon={<PictureOutline />}
            title={t('moments.noNotices')}
            description={t('moments.noNoticesHint')}
          />
        ) : (
          <ul className="moment-notice-list">
            {noticeList.map((n) => (
              <li key={n.id} className="moment-notice">
                <Avatar src={n.user.avatar} name={n.user.displayName} alt="" size={40} />
                <div className="moment-notice-main">
                  <span className="moment-name">{n.user.displayName}</span>
                  <p>{n.type === 'like' ? t('moments.likedYou') : n.content}</p>
                  <time>{formatRelative(n.create_time, now, t, i18n.language)}</time>
                </div>
                {n.post_image ? (
                  <img className="moment-notice-thumb" src={n.post_image} alt="" />
                ) : (
                  <span className="moment-notice-text">{n.post_text}</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </Page>
    );

  return (
    <Page
      title={title}
      className="moments-page"
      right={
        <>
          {!isAlbum && (
            <Link to={momentPaths.publish} className="navbar-back navbar-icon" aria-label={t('moments.publish')}>
              <CameraOutline aria-hidden="true" />
            </Link>
          )}
          <button
            type="button"
            className="navbar-back navbar-icon"
            aria-label={t('moments.menu')}
            aria-expanded={menu}
            aria-controls="moment-page-menu"
            onClick={() => setMenu((v) => !v)}
          >
            <MoreOutline aria-hidden="true" />
          </button>
        </>
      }
    >
      {menu && (
        <ul
          id="moment-page-menu"
          className="moment-page-menu"
          onKeyDown={(e) => {
            if (e.key === 'Escape') setMenu(false);
          }}
        >
          <li>
            <button
              type="button"
              disabled={pull.phase === 'refreshing'}
              onClick={() => {
                setMenu(false);
                void pull.trigger();
              }}
            >
              <RedoOutline aria-hidden="true" /> {t('moments.refresh')}
            </button>
          </li>
          {!isAlbum && (
            <li>
              <Link to={momentPaths.setting} onClick={() => setMenu(false)}>
                <SetOutline aria-hidden="true" /> {t('routes.momentsSetting')}
              </Link>
            </li>
          )}
        </ul>
      )}
      <div
        className={`moment-pull moment-pull-${pull.phase}`}
        style={{ height: pull.phase === 'refreshing' ? 40 : pull.pull }}
        role="status"
      >
        {pullText && t(pullText)}
      </div>
      {status === 'error' && posts.length === 0 ? (
        <EmptyState icon={<PictureOutline />} title={t('moments.failed')} description={t('moments.failedHint')}>
          <button type="button" className="button button-primary" onClick={() => void reload()}>
            {t('common.retry')}
          </button>
        </EmptyState>
      ) : (
        <Virtuoso
          className="moment-list"
          scrollerRef={(el) => setScroller(el instanceof HTMLElement ? el : null)}
          data={posts}
          endReached={() => void loadMore()}
          computeItemKey={(_, p) => p.id}
          context={{
            header,
            footer:
              status === 'loading' ? (
                <p className="moment-end">{t('common.loading')}</p>
              ) : posts.length === 0 ? (
                <EmptyState
                  icon={<PictureOutline />}
                  title={isAlbum ? t('moments.albumEmpty') : t('moments.empty')}
                  description={isAlbum ? t('moments.albumEmptyHint') : t('moments.emptyHint')}
                >
                  {!isAlbum && (
                    <button
                      type="button"
                      className="button button-primary"
                      onClick={() => void navigate(momentPaths.publish)}
                    >
                      {t('moments.publish')}
                    </button>
                  )}
                </EmptyState>
              ) : !more ? (
                <p className="moment-end">{t('moments.end')}</p>
              ) : null,
          }}
          components={LIST_PARTS}
          itemContent={(_, post) => (
            <PostItem
              post={post}
              me={myId}
              now={now}
              onLike={(p) => void onLike(p)}
              onComment={onComment}
              onDelete={(p) => void onDelete(p)}
              onCommentMenu={(p, c) => void onCommentMenu(p, c)}
            />
          )}
        />
      )}
      {draft && (
        <form className="moment-composer" onSubmit={(e) => void send(e)}>
          <input
            autoFocus
            value={text}
            maxLength={500}
            onChange={(e) => setText(e.target.value)}
            aria-label={t('moments.comment')}
            placeholder={
              draft.replyTo ? t('moments.replyTo', { name: draft.replyTo.user.displayName }) : t('moments.commentHint')
            }
            onBlur={() => !text && setDraft(null)}
          />
          <button type="submit" className="button button-primary" disabled={!text.trim()}>
            {t('moments.send')}
          </button>
        </form>
      )}
    </Page>
  );
}
