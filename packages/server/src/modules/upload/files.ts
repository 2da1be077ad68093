import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import type { UploadResult } from '@sparrow/protocol';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import { importOnFirstUse, loadFileType } from '../../lib/lazy';
import { mimeOf } from '../../storage/mime';
import { type StagedFile, type Storage, storageUrl } from '../../storage/storage';
import { openImage } from './image';
import { type FileRepo, type FileRow } from './repo';

/** music-metadata: a voice message's or audio file's duration. */
const loadMusicMetadata = importOnFirstUse(() => import('music-metadata'));

export type { FileRow } from './repo';

const IMAGES = new Set(['jpg', 'png', 'gif', 'webp', 'bmp', 'avif']);
const AUDIO = new Set(['mp3', 'wav', 'm4a', 'aac', 'ogg', 'amr', 'opus', 'flac']);
const VIDEO = new Set(['mp4', 'mov', 'webm', 'mkv', 'avi']);
const DOCS = new Set(['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'txt', 'md', 'csv', 'rtf']);
/** Formats without a signature in their bytes: accepted by name only when they really are text. */
const TEXT = new Set(['txt', 'md', 'csv', 'html', 'htm', 'json', 'xml', 'log']);
/** What file-type calls some containers, and the name users know them by. */
const SAME = new Map([
  ['jpeg', 'jpg'],
  ['qt', 'mov'],
  ['m4v', 'mp4'],
  ['docx', 'docx'],
  ['cfb', 'doc'],
]);
const THUMB_EDGE = 400;

export function cateOf(ext: string): 1 | 2 | 3 | 4 | 9 {
  if (IMAGES.has(ext)) return 2;
  if (AUDIO.has(ext)) return 3;
  if (VIDEO.has(ext)) return 4;
  if (DOCS.has(ext)) return 1;
  return 9;
}

/** A file name as it may be shown and offered for download: no path, no control characters. */
export function safeName(name: string): string {
  const base = path.posix.basename(name.replace(/\\/g, '/'));
  // Control characters are exactly what a safe name must not carry.
  // eslint-disable-next-line no-control-regex -- the pattern names them on purpose
  const unsafe = /[\u0000-\u001f\u007f<>:"|?*]/g;
  const clean = base.replace(unsafe, '_').replace(/^\.+/, '').trim();
  return (clean || 'file').slice(0, 120);
}

/** A file as a web stream, which music-metadata's platform-neutral entry reads. */
const webStreamOf = (file: string) => Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;

/** Whether a file is UTF-8 text without NUL, read as a stream: its bytes are never held whole. */
async function isText(file: string): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      if (chunk.includes(0)) return false;
      decoder.decode(chunk, { stream: true });
    }
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/** Runs `work` on bytes the server holds whole, staged as an upload's are; the staged file goes after. */
export async function withStagedBytes<T>(
  storage: Storage,
  bytes: Buffer,
  work: (staged: StagedFile) => Promise<T>,
): Promise<T> {
  const staged = await storage.stage(Readable.from([bytes]));
  try {
    return await work(staged);
  } finally {
    await fs.rm(staged.path, { force: true });
  }
}

/** What FileService is built from. */
export interface FileParts {
  repos: Pick<Repos, 'files' | 'messages'>;
  storage: Storage;
  now: () => number;
}

/**
 * Stored files: the type is judged by the bytes (a renamed executable stays an executable),
 * the same bytes are stored once, images get a thumbnail and their size, voice and video their
 * duration.
 */
export class FileService {
  private readonly files: FileRepo;

  constructor(private readonly ctx: FileParts) {
    this.files = ctx.repos.files;
  }

  /** The extension the staged bytes really have, checked against the allowed list; throws FileTypeForbidden. */
  async judge(staged: StagedFile, claimedName: string, allowed: string[]): Promise<string> {
    const claimed = path.extname(claimedName).slice(1).toLowerCase();
    // Reads only as much of the file as the type's signature needs.
    const detected = await (await loadFileType()).fileTypeFromFile(staged.path);
    let ext: string;
    if (detected) {
      ext = SAME.get(detected.ext) ?? detected.ext;
      if ((ext === 'zip' || ext === 'doc') && ['docx', 'xlsx', 'pptx', 'doc', 'xls', 'ppt'].includes(claimed))
        ext = claimed;
      if (ext === 'mp4' && claimed === 'm4a') ext = 'm4a';
    } else if (TEXT.has(claimed) && (await isText(staged.path))) {
      ext = claimed;
    } else {
      throw new AppError('FileTypeForbidden');
    }
    if (!allowed.map((e) => e.toLowerCase()).includes(ext)) throw new AppError('FileTypeForbidden');
    return ext;
  }

  /**
   * Bytes the server was handed whole (a group robot's image), judged against `allowed` and stored
   * as `userId`'s upload named `<name>.<ext>`: an upload's checks, without a multipart body.
   */
  async storeBytes(bytes: Buffer, name: string, allowed: string[], userId: number): Promise<FileRow> {
    return withStagedBytes(this.ctx.storage, bytes, async (staged) => {
      const ext = await this.judge(staged, name, allowed);
      return (await this.store(staged, ext, `${name}.${ext}`, userId)).file;
    });
  }

  /**
   * Stores staged bytes of a judged type and records who uploaded them under which name. An image
   * is measured (and refused over the pixel budget) before its bytes are stored.
   */
  async store(staged: StagedFile, ext: string, name: string, userId: number): Promise<{ file: FileRow; name: string }> {
    let file = await this.files.byHash(staged.hash);
    const cate = cateOf(ext);
    let width = 0;
    let height = 0;
    let duration = 0;
    let thumb = '';
    // A file whose bytes were removed is stored again whole, its thumbnail too.
    const known = file && !file.removed_at;
    if (!known && cate === 2) {
      ({ width, height, thumb } = await this.thumbnail(staged));
    } else if (!file && (cate === 3 || cate === 4)) {
      const meta = await (
        await loadMusicMetadata()
      )
        .parseWebStream(webStreamOf(staged.path), { mimeType: mimeOf(ext), size: staged.size }, { duration: true })
        .catch(() => null);
      duration = Math.round((meta?.format.duration ?? 0) * 1000);
    }
    // Stored again when known, in the file's turn: freeing it (check, mark, removal) and storing
    // it again never interleave, so its bytes are there whenever its mark says so.
    const before = file;
    let revived: string | undefined;
    const { key, hash } = before
      ? await this.files.guarded(before.id, async (files) => {
          // Read again in the file's turn: a free may have removed its bytes and thumbnail since.
          const now = await files.byId(before.id);
          if (now?.removed_at) {
            // Made before the bytes are stored: storing them may move the staged file away.
            if (cate === 2 && !thumb) thumb = (await this.thumbnail(staged)).thumb;
            revived = thumb || now.thumb;
          }
          const stored = await this.ctx.storage.putFile(staged, ext);
          if (revived !== undefined) await files.revive(before.id, revived);
          return stored;
        })
      : await this.ctx.storage.putFile(staged, ext);
    if (file && revived !== undefined) file = { ...file, removed_at: 0, thumb: revived };
    if (!file) {
      file = await this.files.insertOrGet({
        hash,
        ext,
        mime: mimeOf(ext),
        size: staged.size,
        cate,
        width,
        height,
        duration,
        thumb,
        storage_key: key,
        create_time: this.ctx.now(),
      });
    }
    const shown = safeName(name);
    await this.files.recordUpload(userId, file.id, shown, this.ctx.now());
    return { file, name: shown };
  }

  /** An image's size and its thumbnail, stored: refused as FileTypeForbidden when it cannot be read. */
  private async thumbnail(staged: StagedFile): Promise<{ width: number; height: number; thumb: string }> {
    const opened = await openImage(staged.path);
    const small = await opened.image
      .rotate()
      .resize(THUMB_EDGE, THUMB_EDGE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer()
      .catch(() => {
        throw new AppError('FileTypeForbidden');
      });
    const thumb = storageUrl((await this.ctx.storage.put(small, 'webp')).key);
    return { width: opened.width, height: opened.height, thumb };
  }

  result(file: FileRow, name: string): UploadResult {
    return {
      file_id: file.id,
      src: storageUrl(file.storage_key),
      name,
      size: file.size,
      ext: file.ext,
      cate: cateOf(file.ext),
      mime: file.mime,
    };
  }

  /**
   * Frees a stored file no one uses any more: when no live message carries it and nothing else
   * holds it (`FileRepo.inUse`: a sticker, an avatar, a moment, a favourite, a merged forward's
   * record), its bytes and thumbnail are removed from storage (either back end) and its row marked
   * removed, so that a withdrawn, deleted, cleared or expired message's file stops being served.
   * Content-addressed: a file two messages carry is freed only once neither does. Safe against a
   * send naming it at the same moment (the send is stored first and the file kept, or the send
   * is refused FileExpired) and against an upload of the same bytes (they take turns, see
   * `FileRepo.guarded`).
   */
  async release(fileId: number): Promise<void> {
    await this.freeUnused(fileId);
  }

  /** As `release`, answering whether the file was freed. */
  async freeUnused(fileId: number): Promise<boolean> {
    if (!fileId) return false;
    const known = await this.files.byId(fileId);
    if (!known?.storage_key || known.removed_at) return false;
    return this.files.guarded(fileId, async (files) => {
      const file = await files.freeIfUnused(fileId, storageUrl(known.storage_key), this.ctx.now());
      if (!file) return false;
      // Content keys are shared by the same bytes: what another file stores as its bytes or its
      // thumbnail (an upload of a thumbnail's bytes, two pictures with one thumbnail) stays.
      if (!(await files.keyShared(fileId, file.storage_key))) await this.ctx.storage.remove(file.storage_key);
      const thumbKey = /^\/storage\/(.+)$/.exec(file.thumb)?.[1];
      if (thumbKey && !(await files.keyShared(fileId, thumbKey))) await this.ctx.storage.remove(thumbKey);
      return true;
    });
  }

  /** Frees each of these files no one uses any more (`release`); answers how many were freed. */
  async releaseAll(fileIds: Iterable<number>): Promise<number> {
    let freed = 0;
    for (const id of new Set(fileIds)) if (await this.freeUnused(id)) freed++;
    return freed;
  }
}
