import type { MomentComment, MomentPost } from '@sparrow/protocol';
import {
  EnvironmentOutline,
  ExclamationCircleOutline,
  HeartOutline,
  LockOutline,
  MessageOutline,
  MoreOutline,
  StarOutline,
  TeamOutline,
} from 'antd-mobile-icons';
import { lazy, memo, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatRelative } from '../../lib/relative-time';
import { useLongPress } from '../../lib/use-long-press';
import { albumPath, reportPath } from '../../nav/paths';
import { favorites } from '../../stores/favorites';
import { Avatar } from '../Avatar';
import { asViewerImages, gridColumns } from './images';

/** Who a post of mine is for, when not all my friends: its mark beside the time, and what it says. */
const RESTRICTED: Record<
  number,
  { icon: 'lock' | 'team'; label: 'moments.visibilityPrivate' | 'moments.visibilityOnly' | 'moments.visibilityExcept' }
> = {
  2: { icon: 'lock', label: 'moments.visibilityPrivate' },
  3: { icon: 'team', label: 'moments.visibilityOnly' },
  4: { icon: 'team', label: 'moments.visibilityExcept' },
};

const ImageViewer = lazy(() => import('../message/ImageViewer').then((m) => ({ default: m.ImageViewer })));
const LocationViewer = lazy(() => import('../location/LocationViewer'));

/** Text longer than this many characters is folded behind 全文. */
const FOLD_CHARS = 180;

interface Props {
  post: MomentPost;
  me: number;
  now: number;
  onLike: (post: MomentPost) => void;
  onComment: (post: MomentPost, replyTo?: MomentComment) => void;
  onDelete: (post: MomentPost) => void;
  onCommentMenu: (post: MomentPost, comment: MomentComment) => void;
}

function CommentLine({
  post,
  comment,
  onTap,
  onMenu,
}: {
  post: MomentPost;
  comment: MomentComment;
  onTap: () => void;
  onMenu: () => void;
}) {
  const { t } = useTranslation();
  const press = useLongPress(onMenu);
  return (
    <li>
      <button type="button" className="moment-comment" onClick={onTap} {...press} data-post={post.id}>
        <span className="moment-name">{comment.user.displayName}</span>
        {comment.reply_to && (
          <>
            {t('moments.replied')}
            <span className="moment-name">{comment.reply_to.displayName}</span>
          </>
        )}
        ：{comment.content}
      </button>
    </li>
  );
}

/** One post: author, text (long text folded), pictures, place, time, likes and comments. */
export const PostItem = memo(function PostItem({ post, me, now, onLike, onComment, onDelete, onCommentMenu }: Props) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [unfolded, setUnfolded] = useState(false);
  const [menu, setMenu] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  const [mapOpen, setMapOpen] = useState(false);
  const long = post.content.length > FOLD_CHARS;
  const text = long && !unfolded ? `${post.content.slice(0, FOLD_CHARS)}…` : post.content;
  const liked = post.likes.some((l) => l.user_id === me);
  const cols = gridColumns(post.images.length);
  return (
    <article className="moment-post" aria-label={t('moments.postBy', { name: post.user.displayName })}>
      <Link to={albumPath(post.user.user_id)} className="moment-avatar">
        <Avatar src={post.user.avatar} name={post.user.displayName} alt={post.user.displayName} size={42} />
      </Link>
      <div className="moment-main">
        <Link to={albumPath(post.user.user_id)} className="moment-author">
          {post.user.displayName}
        </Link>
        {post.content && <p className="moment-text">{text}</p>}
        {long && (
          <button type="button" className="moment-link" onClick={() => setUnfolded((v) => !v)}>
            {unfolded ? t('moments.fold') : t('moments.unfold')}
          </button>
        )}
        {post.images.length > 0 && (
          <div className={`moment-grid moment-grid-${cols}`}>
            {post.images.map((img, i) => (
              <button
                type="button"
                key={img.file_id}
                className="moment-image"
                onClick={() => setViewing(i)}
                aria-label={t('moments.openImage', { n: i + 1, count: post.images.length })}
              >
                <img src={img.thumb} alt="" loading="lazy" />
              </button>
            ))}
          </div>
        )}
        {post.location && (
          <button
            type="button"
            className="moment-location"
            aria-label={t('media.location.open', { name: post.location.name })}
            onClick={() => setMapOpen(true)}
          >
            <EnvironmentOutline aria-hidden="true" /> {post.location.name}
          </button>
        )}
        <div className="moment-meta">
          <time dateTime={new Date(post.create_time).toISOString()}>
            {formatRelative(post.create_time, now, t, i18n.language)}
          </time>
          {post.held === 1 && <span className="moment-held">{t('moments.held')}</span>}
          {/* A held post is kept private until approved: its lock would tell of the wait, not of my choice. */}
          {post.user.user_id === me && post.held !== 1 && RESTRICTED[post.visibility] && (
            <span className="moment-restricted" role="img" aria-label={t(RESTRICTED[post.visibility]!.label)}>
              {RESTRICTED[post.visibility]!.icon === 'lock' ? (
                <LockOutline aria-hidden="true" />
              ) : (
                <TeamOutline aria-hidden="true" />
              )}
            </span>
          )}
          {post.user.user_id === me && (
            <button type="button" className="moment-link" onClick={() => onDelete(post)}>
              {t('moments.delete')}
            </button>
          )}
          <span className="moment-actions">
            {menu && (
              <span className="moment-menu">
                <button
                  type="button"
                  onClick={() => {
                    setMenu(false);
                    onLike(post);
                  }}
                >
                  <HeartOutline aria-hidden="true" /> {liked ? t('moments.unlike') : t('moments.like')}
                </button>
                <button
                  type="button"
                  onClick={() => {
                    setMenu(false);
                    onComment(post);
                  }}
                >
                  <MessageOutline aria-hidden="true" /> {t('moments.comment')}
                </button>
                <button
                  type="button"
                  onClick={() => {
                    setMenu(false);
                    void favorites.save({ post_id: post.id });
                  }}
                >
                  <StarOutline aria-hidden="true" /> {t('favorite.add')}
                </button>
                {post.user.user_id !== me && (
                  <button
                    type="button"
                    onClick={() => {
                      setMenu(false);
                      void navigate(reportPath('moment', post.id));
                    }}
                  >
                    <ExclamationCircleOutline aria-hidden="true" /> {t('report.action')}
                  </button>
                )}
              </span>
            )}
            <button
              type="button"
              className="moment-more"
              aria-expanded={menu}
              aria-label={t('moments.actions')}
              onClick={() => setMenu((v) => !v)}
            >
              <MoreOutline aria-hidden="true" />
            </button>
          </span>
        </div>
        {(post.likes.length > 0 || post.comments.length > 0) && (
          <div className="moment-feedback">
            {post.likes.length > 0 && (
              <p className="moment-likes">
                <HeartOutline aria-label={t('moments.likes')} /> {post.likes.map((l) => l.displayName).join('，')}
              </p>
            )}
            {post.comments.length > 0 && (
              <ul className="moment-comments">
                {post.comments.map((c) => (
                  <CommentLine
                    key={c.id}
                    post={post}
                    comment={c}
                    onTap={() => (c.user.user_id === me ? onCommentMenu(post, c) : onComment(post, c))}
                    onMenu={() => onCommentMenu(post, c)}
                  />
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      {mapOpen && post.location && (
        <Suspense fallback={null}>
          <LocationViewer place={post.location} onClose={() => setMapOpen(false)} />
        </Suspense>
      )}
      {viewing !== null && (
        <Suspense fallback={null}>
          <ImageViewer images={asViewerImages(post.id, post.images)} start={viewing} onClose={() => setViewing(null)} />
        </Suspense>
      )}
    </article>
  );
});
