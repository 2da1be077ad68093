import type { MomentPost, PushPayload } from '@sparrow/protocol';
import { CameraOutline, MoreOutline, PictureOutline, RedoOutline, SetOutline } from 'antd-mobile-icons';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Virtuoso, type Components } from 'react-virtuoso';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import { momentPaths } from '../../nav/paths';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { PostItem } from '../../components/moments/PostItem';
import { mergePage } from '../../components/moments/feed-pages';
import { usePostActions } from '../../components/moments/use-post-actions';
import { usePullToRefresh, type PullPhase } from '../../components/moments/use-pull-to-refresh';
import { MomentsFailed } from '../../components/moments/LoadStates';
import { MomentsCover } from '../../components/moments/MomentsCover';
import '../../components/moments/moments.css';
import type { MessageKey } from '../../i18n/keys';
import type { Loaded } from '../../lib/paged-list';
import { useNow } from '../../lib/use-now';
import { usePagedList } from '../../lib/use-paged-list';
import { moments } from '../../stores/moments';
import { useSession } from '../../stores/session';

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

const postKey = (p: MomentPost) => p.id;

/** 朋友圈 (`/pages/compass/moments`): my feed, or with `?user_id=` a person's album. */
export default function MomentsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const albumOf = Number(params.get('user_id')) || undefined;
  const myId = useSession((s) => s.user?.user_id ?? 0);
  const isAlbum = albumOf !== undefined && albumOf !== myId;
  const now = useNow(60_000);
  const [menu, setMenu] = useState(false);
  const [scroller, setScroller] = useState<HTMLElement | null>(null);

  const body = useCallback(
    (lastId: number) => ({ last_id: lastId, ...(albumOf !== undefined && { user_id: albumOf }) }),
    [albumOf],
  );

  /** A page of the feed or album after the posts loaded; the feed's first page marks its notices seen. */
  const read = useCallback(
    async ({ items }: Loaded<MomentPost>) => {
      const page = await api.momentsList(body(items.at(-1)?.id ?? 0), { silent: true });
      if (items.length === 0 && albumOf === undefined) moments.seen();
      return { items: page, more: page.length > 0 };
    },
    [albumOf, body],
  );
  const [feed, list] = usePagedList(read, postKey);
  const posts = feed.items;

  const refresh = useCallback(async () => {
    if (!(await list.refresh())) feedback.toast(t('moments.refreshFailed'));
  }, [list, t]);
  const pull = usePullToRefresh(scroller, refresh);

  /**
   * A push changes only what it names: a deleted post leaves at once; a new post, like or comment
   * reads again the page holding that post (a new one is on the first) and lays it over the posts
   * loaded, so the pages scrolled through stay.
   */
  useEffect(
    () =>
      moments.subscribe((data: PushPayload<'moments'>) => {
        if (data.type === 'delete') {
          list.update((p) => p.filter((x) => x.id !== data.post_id));
          return;
        }
        if (albumOf !== undefined && data.user_id !== albumOf && data.type === 'post') return;
        const lastId = data.type === 'post' ? 0 : data.post_id + 1;
        void list.apply(api.momentsList(body(lastId), { silent: true }), (p, page) => mergePage(p, page, lastId));
      }),
    [list, albumOf, body],
  );

  useEffect(() => {
    void moments.refresh();
  }, [isAlbum, albumOf]);

  const { handlers, overlay } = usePostActions(myId, list.update);

  const header = (
    <MomentsCover
      albumOf={isAlbum ? albumOf : undefined}
      albumName={isAlbum ? posts[0]?.user.displayName : undefined}
    />
  );

  const title = t('routes.moments');
  const pullText = PULL_TEXT[pull.phase];
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
            if (e.key !== 'Escape') return;
            e.preventDefault();
            setMenu(false);
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
      {feed.status === 'failed' && posts.length === 0 ? (
        <MomentsFailed icon={<PictureOutline />} title={t('moments.failed')} onRetry={() => void list.refresh()} />
      ) : (
        <Virtuoso
          className="moment-list"
          scrollerRef={(el) => setScroller(el instanceof HTMLElement ? el : null)}
          data={posts}
          endReached={() => void list.loadMore()}
          computeItemKey={(_, p) => p.id}
          context={{
            header,
            footer:
              feed.status === 'loading' ? (
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
              ) : !feed.more ? (
                <p className="moment-end">{t('moments.end')}</p>
              ) : null,
          }}
          components={LIST_PARTS}
          itemContent={(_, post) => <PostItem post={post} me={myId} now={now} {...handlers} />}
        />
      )}
      {overlay}
    </Page>
  );
}
