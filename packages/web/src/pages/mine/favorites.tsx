import {
  PAGE_LIMIT_DEFAULT,
  type Favorite,
  FavoriteFilter,
  type FavoriteImage,
  type Message,
  type MessageOf,
} from '@sparrow/protocol';
import { MoreOutline, StarOutline } from 'antd-mobile-icons';
import { lazy, memo, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, request } from '../../api';
import { ActionMenu, type MenuAction } from '../../components/ActionMenu';
import { RecordCard } from '../../components/chat/RecordCard';
import { feedback } from '../../components/feedback';
import { isMediaType, MediaMessage } from '../../components/message/MediaMessage';
import { Page } from '../../components/Page';
import { PagedListBody } from '../../components/PagedListBody';
import { SearchBar } from '../../components/SearchBar';
import type { Span } from '../../components/search/hits';
import { Marked } from '../../components/search/SearchHits';
import { SwipeRow, type SwipeAction } from '../../components/SwipeRow';
import { linkify } from '../../lib/linkify';
import type { Loaded } from '../../lib/paged-list';
import { formatDate } from '../../lib/relative-time';
import { useDebounced } from '../../lib/use-debounced';
import { useLongPress } from '../../lib/use-long-press';
import { usePagedList } from '../../lib/use-paged-list';
import { paths, withQuery } from '../../nav/paths';
import { favorites } from '../../stores/favorites';
import '../../components/message/media.css';
import '../message/media-pages.css';
import './favorites.css';

const ImageViewer = lazy(() =>
  import('../../components/message/ImageViewer').then((m) => ({ default: m.ImageViewer })),
);

/** A text longer than this many characters is folded behind 全文. */
const FOLD_CHARS = 120;

/** Typing in the search box waits this long before asking. */
const SEARCH_DEBOUNCE_MS = 300;

/** The filter chips: all, then the kinds in protocol's (WeChat's) order. */
const FILTERS: ReadonlyArray<FavoriteFilter | 'all'> = ['all', ...FavoriteFilter.options];

const favoriteKey = (f: Favorite) => f.id;

/** A saved message as the message bubbles show it (a file downloads under its name). */
function asMessage(fav: Favorite): Message {
  const { body } = fav;
  const name = typeof body.extends.name === 'string' ? body.extends.name : '';
  return {
    id: `favorite-${fav.id}`,
    msg_id: fav.source_msg_id,
    type: body.type,
    content: body.content,
    sendTime: body.sendTime,
    toContactId: body.sender.id,
    is_group: 0,
    status: 'succeed',
    is_read: 1,
    at: [],
    pid: 0,
    fromUser: {
      id: body.sender.id,
      user_id: body.sender.id,
      realname: body.sender.name,
      displayName: body.sender.name,
      avatar: body.sender.avatar,
    },
    extends: body.extends,
    ...(body.type === 'file' && name && { download: `${body.content}?name=${encodeURIComponent(name)}` }),
  } as Message;
}

/** A post's pictures as the image viewer wants them. */
function asImages(fav: Favorite, pictures: readonly FavoriteImage[]): MessageOf<'image'>[] {
  const base = asMessage(fav);
  return pictures.map((p, i) => ({
    ...base,
    id: `favorite-${fav.id}-${i}`,
    type: 'image',
    content: p.src,
    extends: { width: p.width, height: p.height, thumb: p.thumb, file_id: p.file_id },
  }));
}

/** A text with its links opened in a new tab and the keywords marked (`spans`, offsets into `text`). */
function LinkedText({ text, spans }: { text: string; spans: readonly Span[] }) {
  let at = 0;
  return (
    <>
      {linkify(text).map((part, i) => {
        const start = at;
        at += part.text.length;
        const own = spans
          .filter(([from, to]) => to > start && from < at)
          .map(([from, to]): Span => [Math.max(from, start) - start, Math.min(to, at) - start]);
        const words = <Marked text={part.text} spans={own} />;
        return part.kind === 'link' ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer">
            {words}
          </a>
        ) : (
          <span key={i}>{words}</span>
        );
      })}
    </>
  );
}

/** A saved text or post's text, a long one folded behind 全文. */
function FoldedText({ fav }: { fav: Favorite }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const long = fav.body.content.length > FOLD_CHARS;
  return (
    <div className="fav-words-block">
      <p className={open ? 'fav-text fav-text-open' : 'fav-text'}>
        <LinkedText text={fav.body.content} spans={fav.highlight} />
      </p>
      {long && (
        <button type="button" className="fav-fold" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
          {open ? t('moments.fold') : t('moments.unfold')}
        </button>
      )}
    </div>
  );
}

/** A post's text and first picture; a tap on the picture shows them all. */
function MomentContent({ fav }: { fav: Favorite }) {
  const { t } = useTranslation();
  const [viewing, setViewing] = useState(false);
  const pictures = (Array.isArray(fav.body.extends.images) ? fav.body.extends.images : []) as FavoriteImage[];
  const first = pictures[0];
  return (
    <div className="fav-moment">
      {first && (
        <button
          type="button"
          className="fav-moment-picture"
          aria-label={t('moments.openImage', { n: 1, count: pictures.length })}
          onClick={() => setViewing(true)}
        >
          <img src={first.thumb} alt="" loading="lazy" />
          {pictures.length > 1 && <span className="fav-moment-count">{pictures.length}</span>}
        </button>
      )}
      {fav.body.content && <FoldedText fav={fav} />}
      {viewing && (
        <Suspense fallback={null}>
          <ImageViewer images={asImages(fav, pictures)} start={0} onClose={() => setViewing(false)} />
        </Suspense>
      )}
    </div>
  );
}

/** What a favourite shows of what it keeps: text lines, a picture, a file, a voice, a place, a card, a post, a record. */
function FavoriteContent({ fav }: { fav: Favorite }) {
  const { type } = fav.body;
  if (fav.kind === 'moment') return <MomentContent fav={fav} />;
  if (type === 'text') return <FoldedText fav={fav} />;
  // A record opens the record page by the message it was saved from.
  if (type !== 'record' && !isMediaType(type)) return <p className="fav-text">{fav.body.content}</p>;
  const tile = type === 'image' || type === 'video' || type === 'emoji';
  return (
    <>
      <div className={tile ? 'fav-media fav-media-tile' : 'fav-media'}>
        {type === 'record' ? (
          <RecordCard message={asMessage(fav) as MessageOf<'record'>} />
        ) : (
          <MediaMessage message={asMessage(fav)} tile={tile} />
        )}
      </div>
      {fav.highlight.length > 0 && (
        <p className="fav-words">
          <Marked text={fav.words} spans={fav.highlight} />
        </p>
      )}
    </>
  );
}

interface ItemProps {
  fav: Favorite;
  language: string;
  onSend: (fav: Favorite) => void;
  onDelete: (fav: Favorite) => void;
}

/** One favourite: its content, where it came from and when; swipe, long-press or its ⋯ button to send or delete it. */
const FavoriteItem = memo(function FavoriteItem({ fav, language, onSend, onDelete }: ItemProps) {
  const { t } = useTranslation();
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const press = useLongPress((x, y) => setMenu({ x, y }));
  const { sender, chatName } = fav.body;
  const from =
    fav.kind === 'moment'
      ? t('favorite.moment', { name: sender.name })
      : chatName && chatName !== sender.name
        ? t('favorite.fromChat', { name: sender.name, chat: chatName })
        : sender.name;
  const swipe: SwipeAction[] = [
    { key: 'send', label: t('favorite.send'), tone: 'blue', onSelect: () => onSend(fav) },
    { key: 'delete', label: t('favorite.delete'), tone: 'red', onSelect: () => onDelete(fav) },
  ];
  const actions: MenuAction[] = [
    { key: 'send', label: t('favorite.send'), onSelect: () => onSend(fav) },
    { key: 'delete', label: t('favorite.delete'), danger: true, onSelect: () => onDelete(fav) },
  ];
  return (
    <li className="fav-row" data-favorite={fav.id}>
      <SwipeRow actions={swipe}>
        <div className="fav-item" {...press}>
          <FavoriteContent fav={fav} />
          <div className="fav-meta">
            <span className="fav-from">{from}</span>
            <time dateTime={new Date(fav.create_time).toISOString()}>
              {formatDate(fav.create_time, language, Date.now())}
            </time>
            <button
              type="button"
              className="fav-more"
              aria-label={t('favorite.actions')}
              aria-haspopup="menu"
              onClick={(e) => {
                const r = e.currentTarget.getBoundingClientRect();
                setMenu({ x: r.right, y: r.bottom });
              }}
            >
              <MoreOutline aria-hidden="true" />
            </button>
          </div>
        </div>
      </SwipeRow>
      {menu && (
        <ActionMenu
          anchor={menu}
          actions={actions}
          label={t('favorite.actions')}
          layout="list"
          onClose={() => setMenu(null)}
        />
      )}
    </li>
  );
});

/**
 * 收藏 (Me → Favorites): what I saved of messages and moments posts, newest first, filtered by kind
 * and searched by words as messages are; each sent on to chats or deleted. Another device's saves
 * and deletions show as they happen.
 */
export default function FavoritesPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [filter, setFilter] = useState<FavoriteFilter | 'all'>('all');
  const [text, setText] = useState('');
  const keywords = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);

  const read = useCallback(
    async ({ pages }: Loaded<Favorite>) => {
      const { data, count } = await request(
        'favoriteList',
        {
          page: pages + 1,
          limit: PAGE_LIMIT_DEFAULT,
          ...(filter !== 'all' && { type: filter }),
          ...(keywords && { keywords }),
        },
        { silent: true },
      );
      return { items: data, total: count ?? (pages === 0 ? data.length : undefined) };
    },
    [filter, keywords],
  );
  const [list, pager] = usePagedList(read, favoriteKey);
  /** The list shown now: a deletion confirmed after the filter changed updates the new one. */
  const shown = useRef(pager);
  shown.current = pager;

  useEffect(
    () =>
      favorites.subscribe((data) => {
        if (data.action === 'del') pager.update((items) => items.filter((f) => !data.ids.includes(f.id)));
        void pager.refresh();
      }),
    [pager],
  );

  const handleSend = useCallback(
    (fav: Favorite) => void navigate(withQuery(paths.userSelection, { mode: 'forward', favorite_id: fav.id })),
    [navigate],
  );
  const handleDelete = useCallback(
    async (fav: Favorite) => {
      const ok = await feedback
        .confirm({
          content: t('favorite.deleteConfirm'),
          confirmText: t('favorite.delete'),
          cancelText: t('common.cancel'),
          danger: true,
        })
        .catch(() => false);
      if (!ok) return;
      try {
        await api.favoriteDel({ ids: [fav.id] }, { quiet: true });
        // Gone at once; the first page read again brings the count along.
        shown.current.update((items) => items.filter((f) => f.id !== fav.id));
        void shown.current.refresh();
        feedback.toast(t('favorite.deleted'));
      } catch {
        // The request layer said why.
      }
    },
    [t],
  );
  const onDelete = useCallback((fav: Favorite) => void handleDelete(fav), [handleDelete]);

  return (
    <Page title={t('favorite.title')} className="favorites-page">
      <SearchBar value={text} onChange={setText} placeholder={t('favorite.search')} />
      <div className="files-cates" role="group" aria-label={t('favorite.kind')}>
        {FILTERS.map((f) => (
          <button key={f} type="button" className="files-cate" aria-pressed={filter === f} onClick={() => setFilter(f)}>
            {t(`favorite.filter.${f}`)}
          </button>
        ))}
      </div>
      <PagedListBody
        list={list}
        pager={pager}
        icon={<StarOutline />}
        loadFailed={t('favorite.loadFailed')}
        empty={{
          title: keywords || filter !== 'all' ? t('favorite.noMatch') : t('favorite.empty'),
          description: keywords || filter !== 'all' ? '' : t('favorite.emptyDesc'),
        }}
        total={(count) => t('favorite.total', { count })}
        end={t('favorite.end')}
      >
        <ul className="fav-list">
          {list.items.map((f) => (
            <FavoriteItem key={f.id} fav={f} language={i18n.language} onSend={handleSend} onDelete={onDelete} />
          ))}
        </ul>
      </PagedListBody>
    </Page>
  );
}
