import { MOMENT_COMMENT_MAX, type MomentComment, type MomentPost } from '@sparrow/protocol';
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { feedback } from '../feedback';
import { ActionSheet, type SheetAction } from '../group/ActionSheet';

/** Changes the posts a page shows. */
export type UpdatePosts = (change: (posts: readonly MomentPost[]) => readonly MomentPost[]) => void;

interface Draft {
  post: MomentPost;
  replyTo?: MomentComment;
}

/** What a post's buttons do: given to each `PostItem` as they are. */
export interface PostHandlers {
  onLike: (post: MomentPost) => void;
  onComment: (post: MomentPost, replyTo?: MomentComment) => void;
  onDelete: (post: MomentPost) => void;
  onCommentMenu: (post: MomentPost, comment: MomentComment) => void;
}

export interface PostActions {
  handlers: PostHandlers;
  /** The comment box and the comment's action sheet, to render below the posts. */
  overlay: ReactNode;
}

/** May I delete this comment: mine, or any on my post (as the server decides it). */
export const mayDeleteComment = (post: MomentPost, comment: MomentComment, me: number) =>
  comment.user.user_id === me || post.user.user_id === me;

/**
 * The comment box at the bottom. Its words are its own state, so typing redraws the box alone and
 * not the feed behind it.
 */
function CommentBox({
  draft,
  focusNow,
  onSend,
  onDrop,
}: {
  draft: Draft;
  /** Whether it may take focus: not while the sheet it was opened from is still closing. */
  focusNow: boolean;
  onSend(text: string): Promise<void>;
  onDrop(): void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const input = useRef<HTMLInputElement>(null);

  // Focused once the sheet (if it opened the box) has closed: the sheet's dialog gives focus back
  // to the comment it was opened from as it closes, which would blur, and so close, the box.
  useEffect(() => {
    if (focusNow) input.current?.focus();
  }, [focusNow]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const words = text.trim();
    if (words) void onSend(words).catch(() => undefined);
  };

  return (
    <form className="moment-composer" onSubmit={submit}>
      <input
        ref={input}
        value={text}
        maxLength={MOMENT_COMMENT_MAX}
        onChange={(e) => setText(e.target.value)}
        aria-label={t('moments.comment')}
        placeholder={
          draft.replyTo ? t('moments.replyTo', { name: draft.replyTo.user.displayName }) : t('moments.commentHint')
        }
        onBlur={() => !text && onDrop()}
      />
      <button type="submit" className="button button-primary" disabled={!text.trim()}>
        {t('moments.send')}
      </button>
    </form>
  );
}

/**
 * What a person does to the posts a page shows (the feed, an album, one post): like, comment or
 * reply in a box at the bottom, delete a post, and a long-pressed comment's sheet (回复, 删除 when
 * allowed, 取消). `onDeleted` hears a post of mine that I deleted.
 */
export function usePostActions(me: number, update: UpdatePosts, onDeleted?: (post: MomentPost) => void): PostActions {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [sheet, setSheet] = useState<{ post: MomentPost; comment: MomentComment } | null>(null);

  const replace = useCallback(
    (next: MomentPost) => update((p) => p.map((x) => (x.id === next.id ? next : x))),
    [update],
  );

  const onLike = useCallback(
    (post: MomentPost) => {
      const liked = post.likes.some((l) => l.user_id === me);
      void (liked ? api.momentsUnlike({ id: post.id }) : api.momentsLike({ id: post.id })).then(replace, () => {
        // The request layer has shown why.
      });
    },
    [me, replace],
  );

  const onDelete = useCallback(
    (post: MomentPost) => {
      void (async () => {
        const yes = await feedback.confirm({
          content: t('moments.deleteConfirm'),
          confirmText: t('moments.delete'),
          danger: true,
          cancelText: t('common.cancel'),
        });
        if (!yes) return;
        await api.momentsDel({ id: post.id });
        update((p) => p.filter((x) => x.id !== post.id));
        onDeleted?.(post);
      })().catch(() => undefined);
    },
    [onDeleted, t, update],
  );

  const onComment = useCallback((post: MomentPost, replyTo?: MomentComment) => {
    setDraft(replyTo ? { post, replyTo } : { post });
  }, []);

  const onCommentMenu = useCallback((post: MomentPost, comment: MomentComment) => setSheet({ post, comment }), []);

  const deleteComment = async (post: MomentPost, comment: MomentComment) => {
    try {
      await api.momentsDelComment({ id: comment.id });
    } catch {
      return;
    }
    update((p) =>
      p.map((x) => (x.id === post.id ? { ...x, comments: x.comments.filter((c) => c.id !== comment.id) } : x)),
    );
  };

  const send = async (to: Draft, text: string) => {
    const comment = await api.momentsComment({
      id: to.post.id,
      content: text,
      ...(to.replyTo && { reply_to: to.replyTo.id }),
    });
    update((p) => p.map((x) => (x.id === to.post.id ? { ...x, comments: [...x.comments, comment] } : x)));
    setDraft(null);
  };

  const actions: SheetAction[] = [];
  if (sheet) {
    const { post, comment } = sheet;
    if (comment.user.user_id !== me)
      actions.push({ key: 'reply', text: t('moments.reply'), onSelect: () => onComment(post, comment) });
    if (mayDeleteComment(post, comment, me))
      actions.push({
        key: 'delete',
        text: t('moments.delete'),
        danger: true,
        onSelect: () => void deleteComment(post, comment),
      });
  }

  const overlay = (
    <>
      <ActionSheet
        open={sheet !== null}
        title={sheet ? t('moments.commentOf', { name: sheet.comment.user.displayName }) : ''}
        description={sheet?.comment.content}
        actions={actions}
        onClose={() => setSheet(null)}
      />
      {draft && (
        <CommentBox
          key={`${draft.post.id}-${draft.replyTo?.id ?? 0}`}
          draft={draft}
          focusNow={!sheet}
          onSend={(text) => send(draft, text)}
          onDrop={() => setDraft(null)}
        />
      )}
    </>
  );

  return { handlers: { onLike, onComment, onDelete, onCommentMenu }, overlay };
}
