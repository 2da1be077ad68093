import type { EmojiItem } from '@sparrow/protocol';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { storageUrl } from '../../storage/storage';
import type { Session } from '../auth/session';
import type { MessageService } from '../im/service';
import { FileService } from '../upload/files';
import { readUpload } from '../upload/service';

const STICKER_EXT = ['jpg', 'png', 'gif', 'webp'];

/** My sticker collection (api.md §3 `/enterprise/emoji/*`). */
export class EmojiService {
  private readonly files: FileService;

  constructor(
    private readonly ctx: AppContext,
    private readonly messages: MessageService,
  ) {
    this.files = new FileService(ctx);
  }

  async list(session: Session): Promise<EmojiItem[]> {
    const rows = await this.ctx.db
      .selectFrom('emoji as e')
      .innerJoin('files as f', 'f.id', 'e.file_id')
      .select(['e.id', 'e.file_id', 'e.name', 'f.storage_key'])
      .where('e.user_id', '=', session.userId)
      .orderBy('e.sort', 'desc')
      .orderBy('e.id', 'desc')
      .execute();
    return rows.map((r) => ({ id: r.id, file_id: r.file_id, name: r.name, src: storageUrl(r.storage_key) }));
  }

  private async insert(session: Session, fileId: number, name: string): Promise<EmojiItem> {
    const now = this.ctx.now();
    await this.ctx.db
      .insertInto('emoji')
      .values({ user_id: session.userId, file_id: fileId, name: name.slice(0, 64), sort: now, create_time: now })
      .onConflict((oc) => oc.columns(['user_id', 'file_id']).doUpdateSet({ sort: now }))
      .execute();
    const item = (await this.list(session)).find((e) => e.file_id === fileId);
    if (!item) throw new AppError('NotFound');
    return item;
  }

  /** A new sticker from an uploaded image (image types only, at most `emojiSize` MB). */
  async upload(session: Session, req: FastifyRequest): Promise<EmojiItem> {
    const { emojiSize } = this.ctx.config.get().fileUpload;
    const { file, bytes } = await readUpload(req, emojiSize);
    const ext = await this.files.judge(bytes, file.filename, STICKER_EXT);
    const stored = await this.files.store(bytes, ext, file.filename, session.userId);
    return this.insert(session, stored.file.id, stored.name);
  }

  /** Adds an image I uploaded, or one from a sticker or image message I can see. */
  async add(session: Session, fileId: number): Promise<EmojiItem> {
    const file = await this.files.byId(fileId);
    if (
      !file ||
      !STICKER_EXT.includes(file.ext) ||
      file.size > this.ctx.config.get().fileUpload.emojiSize * 1024 * 1024
    ) {
      throw new AppError('NotFound', {}, { fields: ['file_id'] });
    }
    const mine = await this.files.uploadedName(session.userId, fileId);
    if (mine === null && !(await this.seen(session, fileId)))
      throw new AppError('NotFound', {}, { fields: ['file_id'] });
    return this.insert(session, fileId, mine ?? '');
  }

  /** Whether a message I can see carries this file. */
  private async seen(session: Session, fileId: number): Promise<boolean> {
    const rows = await this.ctx.db
      .selectFrom('messages')
      .select('id')
      .where('file_id', '=', fileId)
      .where('is_deleted', '=', 0)
      .where('is_undo', '=', 0)
      .orderBy('id', 'desc')
      .limit(20)
      .execute();
    for (const r of rows) {
      try {
        await this.messages.visible(session, r.id);
        return true;
      } catch {
        /* not this one */
      }
    }
    return false;
  }

  async remove(session: Session, ids: number[]): Promise<void> {
    const rows = await this.ctx.db
      .selectFrom('emoji')
      .select(['id', 'file_id'])
      .where('user_id', '=', session.userId)
      .where('id', 'in', ids)
      .execute();
    if (rows.length === 0) return;
    await this.ctx.db.deleteFrom('emoji').where('user_id', '=', session.userId).where('id', 'in', ids).execute();
    for (const r of rows) await this.files.release(r.file_id);
  }

  /** Moves stickers to the front, keeping their order among themselves. */
  async moveToFront(session: Session, ids: number[]): Promise<void> {
    const now = this.ctx.now();
    for (let i = 0; i < ids.length; i++) {
      await this.ctx.db
        .updateTable('emoji')
        .set({ sort: now + ids.length - i })
        .where('user_id', '=', session.userId)
        .where('id', '=', ids[i]!)
        .execute();
    }
  }
}
