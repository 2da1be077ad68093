import type { MomentPost } from '@sparrow/protocol';
import { PictureOutline } from 'antd-mobile-icons';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api';
import { EmptyState } from '../../components/EmptyState';
import { PostItem } from '../../components/moments/PostItem';
import { MomentsFailed, MomentsLoading } from '../../components/moments/LoadStates';
import '../../components/moments/moments.css';
import { usePostActions, type UpdatePosts } from '../../components/moments/use-post-actions';
import { Page } from '../../components/Page';
import { useNow } from '../../lib/use-now';
import { moments } from '../../stores/moments';
import { useSession } from '../../stores/session';

type Status = 'loading' | 'ready' | 'gone' | 'error';

/**
 * One post I may see, as my feed holds it: the page of the feed that starts at it (docs/protocol.md `list`
 * with `last_id` just above its id), so no endpoint beyond docs/protocol.md's is needed. A post of someone
 * whose posts I skip in my feed reads as gone, as does one deleted or no longer shown to me.
 */
async function readPost(id: number): Promise<MomentPost | null> {
  const [first] = await api.momentsList({ last_id: id + 1 }, { silent: true });
  return first?.id === id ? first : null;
}

/** 详情 (`/pages/compass/post?id=`): one post, as a notice opens it, with its likes and comments. */
export default function PostPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const me = useSession((s) => s.user?.user_id ?? 0);
  const now = useNow(60_000);
  const [post, setPost] = useState<MomentPost | null>(null);
  const [status, setStatus] = useState<Status>('loading');

  const load = useCallback(async () => {
    if (!id) {
      setStatus('gone');
      return;
    }
    try {
      const found = await readPost(id);
      setPost(found);
      setStatus(found ? 'ready' : 'gone');
    } catch {
      setStatus((s) => (s === 'ready' ? s : 'error'));
    }
  }, [id]);

  useEffect(() => {
    setStatus('loading');
    void load();
  }, [load]);

  // A push about this post: deleted, it is gone; liked or commented on, it is read again.
  useEffect(
    () =>
      moments.subscribe((data) => {
        if (data.post_id !== id) return;
        if (data.type === 'delete') {
          setPost(null);
          setStatus('gone');
        } else void load();
      }),
    [id, load],
  );

  // Without its post (deleted here), the page reads as gone.
  const update = useCallback<UpdatePosts>((change) => setPost((p) => change(p ? [p] : [])[0] ?? null), []);
  const onDeleted = useCallback(() => void navigate(-1), [navigate]);
  const { handlers, overlay } = usePostActions(me, update, onDeleted);

  const title = t('routes.momentsPost');
  return (
    <Page title={title} className="moments-page">
      {status === 'loading' ? (
        <MomentsLoading />
      ) : status === 'error' ? (
        <MomentsFailed
          icon={<PictureOutline />}
          title={t('moments.postFailed')}
          onRetry={() => {
            setStatus('loading');
            void load();
          }}
        />
      ) : status === 'gone' || !post ? (
        <EmptyState icon={<PictureOutline />} title={t('moments.postGone')} description={t('moments.postGoneHint')} />
      ) : (
        <div className="moment-single">
          <PostItem post={post} me={me} now={now} {...handlers} />
        </div>
      )}
      {overlay}
    </Page>
  );
}
