import type { EmojiItem } from '@sparrow/protocol';
import type { FastifyRequest } from 'fastify';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import { storageUrl, type Storage } from '../../storage/storage';
import type { Access } from '../access';
import type { Session } from '../auth';
import type { ConfigService } from '../system';
import { readUpload, type FileService } from '../upload';
import type { EmojiRepo } from './repo';

const STICKER_EXT = ['jpg', 'png', 'gif', 'webp'];

/** What EmojiService is built from. */
export interface EmojiParts {
  repos: Pick<Repos, 'emoji' | 'files'>;
  access: Access;
  config: ConfigService;
  storage: Storage;
  now: () => number;
}

/** My sticker collection (docs/protocol.md §3 `/enterprise/emoji/*`). */
export class EmojiService {
  private readonly emoji: EmojiRepo;

  constructor(
    private readonly ctx: EmojiParts,
    private readonly files: FileService,
  ) {
    this.emoji = ctx.repos.emoji;
  }

  async list(session: Session): Promise<EmojiItem[]> {
    const rows = await this.emoji.listOf(session.userId);
    return rows.map((r) => ({ id: r.id, file_id: r.file_id, name: r.name, src: storageUrl(r.storage_key) }));
  }

  private async insert(session: Session, fileId: number, name: string): Promise<EmojiItem> {
    const now = this.ctx.now();
    await this.emoji.upsert(session.userId, fileId, name.slice(0, 64), now, now);
    const item = (await this.list(session)).find((e) => e.file_id === fileId);
    if (!item) throw new AppError('NotFound');
    return item;
  }

  /** A new sticker from an uploaded image (image types only, at most `emojiSize` MB). */
  async upload(session: Session, req: FastifyRequest): Promise<EmojiItem> {
    const { emojiSize } = this.ctx.config.get().fileUpload;
    const { file, staged } = await readUpload(req, this.ctx.storage, emojiSize);
    const ext = await this.files.judge(staged, file.filename, STICKER_EXT);
    const stored = await this.files.store(staged, ext, file.filename, session.userId);
    return this.insert(session, stored.file.id, stored.name);
  }

  /** Adds an image I uploaded, or one from a sticker or image message I can see. */
  async add(session: Session, fileId: number): Promise<EmojiItem> {
    const file = await this.ctx.repos.files.byId(fileId);
    if (
      !file ||
      !STICKER_EXT.includes(file.ext) ||
      file.size > this.ctx.config.get().fileUpload.emojiSize * 1024 * 1024
    ) {
      throw new AppError('NotFound', {}, { fields: ['file_id'] });
    }
    const mine = await this.ctx.repos.files.uploadedName(session.userId, fileId);
    if (mine === undefined && !(await this.ctx.access.carriedBySeenMessage(session, fileId)))
      throw new AppError('NotFound', {}, { fields: ['file_id'] });
    return this.insert(session, fileId, mine ?? '');
  }

  async remove(session: Session, ids: number[]): Promise<void> {
    const rows = await this.emoji.mine(session.userId, ids);
    if (rows.length === 0) return;
    await this.emoji.remove(session.userId, ids);
    for (const r of rows) await this.files.release(r.file_id);
  }

  /** Moves stickers to the front, keeping their order among themselves. */
  async moveToFront(session: Session, ids: number[]): Promise<void> {
    const now = this.ctx.now();
    for (let i = 0; i < ids.length; i++) {
      await this.emoji.setSort(session.userId, ids[i]!, now + ids.length - i);
    }
  }
}
