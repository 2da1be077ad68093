import type { Favorite, FavoriteFilter, FavoriteImage, FavoriteSnapshot, RouteInput } from '@sparrow/protocol';
import { AppError } from '../../errors';
import { parseJson } from '../../lib/text';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { storageUrl } from '../../storage/storage';
import type { Access, Chat } from '../access';
import type { Session } from '../auth';
import {
  copyOf,
  forwardable,
  highlights,
  queryTerms,
  searchText,
  type ForwardDraft,
  type MessageRow,
  type SendPipeline,
} from '../im';
import type { FileService } from '../upload';
import { presentFavorite } from './presenter';
import type { FavoriteKindFilter, FavoriteRepo, FavoriteRow, NewFavorite } from './repo';
import { holdsTerms } from './words';

/** What FavoriteService is built from. */
export interface FavoriteParts {
  repos: Pick<Repos, 'favorites' | 'moments' | 'users'>;
  access: Pick<Access, 'message' | 'moment'>;
  realtime: Pick<Realtime, 'publish'>;
  now: () => number;
}

/** What each filter of the list reads. */
const FILTERS: Record<FavoriteFilter, FavoriteKindFilter> = {
  text: { kind: 'message', types: ['text'] },
  media: { kind: 'message', types: ['image', 'video'] },
  file: { kind: 'message', types: ['file'] },
  voice: { kind: 'message', types: ['voice'] },
  location: { kind: 'message', types: ['location'] },
  contact: { kind: 'message', types: ['contact'] },
  link: { kind: 'message', types: ['text'], links: true },
  record: { kind: 'message', types: ['record'] },
  moment: { kind: 'moment' },
};

/**
 * Favourites (收藏, docs/protocol.md §3 `/enterprise/favorite/*`): snapshots of messages and
 * moments posts a user saved, theirs alone on every route (another user's favourite is answered as
 * a missing one). The files a snapshot shows stay stored while it keeps them.
 */
export class FavoriteService {
  private readonly favorites: FavoriteRepo;

  constructor(
    private readonly ctx: FavoriteParts,
    private readonly pipeline: Pick<SendPipeline, 'forwardTargets' | 'forwardTo'>,
    private readonly files: Pick<FileService, 'release'>,
  ) {
    this.favorites = ctx.repos.favorites;
  }

  /**
   * Saves messages I can see now, or a moments post I can see; every one is checked before any
   * is saved. One saved already is answered as it was saved.
   */
  async add(session: Session, body: RouteInput<'favoriteAdd'>, exceptClientId?: string): Promise<Favorite[]> {
    const now = this.ctx.now();
    const fresh =
      body.post_id !== undefined
        ? [await this.ofPost(session, body.post_id, now)]
        : await this.ofMessages(session, [...new Set(body.msg_ids ?? [])], now);
    const saved: FavoriteRow[] = [];
    for (const fav of fresh) saved.push(await this.favorites.save(fav));
    await this.tell(session.userId, 'add', saved, exceptClientId);
    return saved.map((row) => presentFavorite(row, []));
  }

  private async ofMessages(session: Session, msgIds: number[], now: number): Promise<NewFavorite[]> {
    const found: Array<{ row: MessageRow; chat: Chat }> = [];
    for (const id of msgIds) {
      const seen = await this.ctx.access.message(session, id);
      if (!forwardable(seen.row)) throw new AppError('NotAllowedTarget');
      found.push(seen);
    }
    const senders = await this.ctx.repos.users.byIds(found.map((f) => f.row.from_user));
    return found.map(({ row, chat }) => {
      const { type, content, extends: ext, fileId } = copyOf(row);
      const sender = senders.get(row.from_user);
      const snapshot: FavoriteSnapshot = {
        type,
        content,
        extends: ext,
        sender: { id: row.from_user, name: sender?.realname ?? '', avatar: sender?.avatar ?? '' },
        sendTime: row.create_time,
        chatName: chat.kind === 'group' ? chat.group.name : chat.kind === 'private' ? chat.peer.realname : '',
      };
      return {
        user_id: session.userId,
        kind: 'message',
        type,
        source_msg_id: row.id,
        source_post_id: 0,
        body: JSON.stringify(snapshot),
        search_text: searchText(type, content, JSON.stringify(ext)),
        file_id: fileId,
        fileIds: fileId ? [fileId] : [],
        create_time: now,
      };
    });
  }

  private async ofPost(session: Session, postId: number, now: number): Promise<NewFavorite> {
    const post = await this.ctx.access.moment(session.userId, postId, now);
    const { moments, users } = this.ctx.repos;
    const [images, author] = await Promise.all([moments.images([post.id]), users.byId(post.user_id)]);
    const pictures: FavoriteImage[] = images.map((i) => ({
      file_id: i.file_id,
      src: storageUrl(i.storage_key),
      thumb: i.thumb || storageUrl(i.storage_key),
      width: i.width,
      height: i.height,
    }));
    const location = post.location ? parseJson(post.location) : undefined;
    const snapshot: FavoriteSnapshot = {
      type: 'moment',
      content: post.content,
      extends: { images: pictures, ...(location && { location }) },
      sender: { id: post.user_id, name: author?.realname ?? '', avatar: author?.avatar ?? '' },
      sendTime: post.create_time,
      chatName: '',
    };
    return {
      user_id: session.userId,
      kind: 'moment',
      type: 'moment',
      source_msg_id: 0,
      source_post_id: post.id,
      body: JSON.stringify(snapshot),
      search_text: post.content,
      file_id: pictures[0]?.file_id ?? 0,
      fileIds: pictures.map((p) => p.file_id),
      create_time: now,
    };
  }

  /** My favourites, newest first; with keywords, those whose words hold them all, as message search finds them. */
  async list(session: Session, body: RouteInput<'favoriteList'>): Promise<{ items: Favorite[]; total: number }> {
    const filter = body.type ? FILTERS[body.type] : {};
    const offset = (body.page - 1) * body.limit;
    const terms = queryTerms(body.keywords ?? '');
    if (!terms.length) {
      const { rows, total } = await this.favorites.page(session.userId, filter, { limit: body.limit, offset });
      return { items: rows.map((row) => presentFavorite(row, [])), total };
    }
    const matches = (await this.favorites.words(session.userId, filter)).filter((w) =>
      holdsTerms(w.search_text, terms),
    );
    const rows = await this.favorites.mineOf(
      session.userId,
      matches.slice(offset, offset + body.limit).map((m) => m.id),
    );
    return {
      items: rows.map((row) => presentFavorite(row, highlights(row.search_text, terms))),
      total: matches.length,
    };
  }

  /** Removes favourites of mine, and the bytes of files nothing else keeps. */
  async remove(session: Session, ids: number[], exceptClientId?: string): Promise<void> {
    const removed = await this.favorites.remove(session.userId, [...new Set(ids)]);
    for (const fileId of removed.fileIds) await this.files.release(fileId);
    if (removed.ids.length)
      await this.ctx.realtime.publish(
        [session.userId],
        { type: 'favorite', data: { action: 'del', ids: removed.ids } },
        exceptClientId,
      );
  }

  /**
   * Sends a favourite's content to 1–5 chats through the send pipeline, as forwardMessage sends a
   * message: a message's copy; a post's text, then each of its pictures.
   */
  async send(session: Session, body: RouteInput<'favoriteSend'>): Promise<void> {
    const row = await this.favorites.mine(session.userId, body.id);
    if (!row) throw new AppError('FavoriteNotFound');
    const chats = await this.pipeline.forwardTargets(session, body.user_ids);
    await this.pipeline.forwardTo(session, chats, draftsOf(row));
  }

  private async tell(userId: number, action: 'add', rows: FavoriteRow[], exceptClientId?: string): Promise<void> {
    if (!rows.length) return;
    await this.ctx.realtime.publish(
      [userId],
      { type: 'favorite', data: { action, ids: rows.map((r) => r.id) } },
      exceptClientId,
    );
  }
}

/** What sending a favourite posts to each chat. */
function draftsOf(row: FavoriteRow): ForwardDraft[] {
  const snapshot = parseJson(row.body) as unknown as FavoriteSnapshot;
  const blank = { at: [], pid: 0 };
  if (row.kind === 'message')
    return [
      { ...blank, type: snapshot.type, content: snapshot.content, extends: snapshot.extends, fileId: row.file_id },
    ];
  const drafts: ForwardDraft[] = [];
  if (snapshot.content.trim())
    drafts.push({ ...blank, type: 'text', content: snapshot.content, extends: {}, fileId: 0 });
  for (const image of (snapshot.extends.images ?? []) as FavoriteImage[])
    drafts.push({
      ...blank,
      type: 'image',
      content: image.src,
      extends: { width: image.width, height: image.height, thumb: image.thumb, file_id: image.file_id },
      fileId: image.file_id,
    });
  return drafts;
}
