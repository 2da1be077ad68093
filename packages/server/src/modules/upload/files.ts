import path from 'node:path';
import type { UploadResult } from '@sparrow/protocol';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { importOnFirstUse, loadFileType, loadSharp } from '../../lib/lazy';
import { mimeOf } from '../../storage/mime';
import { storageUrl } from '../../storage/storage';
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

function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stored files: the type is judged by the bytes (a renamed executable stays an executable),
 * the same bytes are stored once, images get a thumbnail and their size, voice and video their
 * duration.
 */
export class FileService {
  private readonly files: FileRepo;

  constructor(private readonly ctx: AppContext) {
    this.files = ctx.repos.files;
  }

  /** The extension the bytes really have, checked against the allowed list; throws FileTypeForbidden. */
  async judge(bytes: Buffer, claimedName: string, allowed: string[]): Promise<string> {
    const claimed = path.extname(claimedName).slice(1).toLowerCase();
    const detected = await (await loadFileType()).fileTypeFromBuffer(bytes);
    let ext: string;
    if (detected) {
      ext = SAME.get(detected.ext) ?? detected.ext;
      if ((ext === 'zip' || ext === 'doc') && ['docx', 'xlsx', 'pptx', 'doc', 'xls', 'ppt'].includes(claimed))
        ext = claimed;
      if (ext === 'mp4' && claimed === 'm4a') ext = 'm4a';
    } else if (TEXT.has(claimed) && isText(bytes)) {
      ext = claimed;
    } else {
      throw new AppError('FileTypeForbidden');
    }
    if (!allowed.map((e) => e.toLowerCase()).includes(ext)) throw new AppError('FileTypeForbidden');
    return ext;
  }

  /** Stores bytes of a judged type and records who uploaded them under which name. */
  async store(bytes: Buffer, ext: string, name: string, userId: number): Promise<{ file: FileRow; name: string }> {
    const { key, hash } = await this.ctx.storage.put(bytes, ext);
    let file = await this.files.byHash(hash);
    if (!file) {
      const cate = cateOf(ext);
      let width = 0;
      let height = 0;
      let duration = 0;
      let thumb = '';
      if (cate === 2) {
        const meta = await loadSharp()(bytes, { animated: false })
          .metadata()
          .catch(() => null);
        if (!meta?.width) throw new AppError('FileTypeForbidden');
        width = meta.width;
        height = meta.height ?? 0;
        const small = await loadSharp()(bytes, { animated: false })
          .rotate()
          .resize(THUMB_EDGE, THUMB_EDGE, { fit: 'inside', withoutEnlargement: true })
          .webp({ quality: 80 })
          .toBuffer();
        thumb = storageUrl((await this.ctx.storage.put(small, 'webp')).key);
      } else if (cate === 3 || cate === 4) {
        const meta = await (
          await loadMusicMetadata()
        )
          .parseBuffer(bytes, { mimeType: mimeOf(ext) }, { duration: true })
          .catch(() => null);
        duration = Math.round((meta?.format.duration ?? 0) * 1000);
      }
      file = await this.files.insertOrGet({
        hash,
        ext,
        mime: mimeOf(ext),
        size: bytes.length,
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
   * Removes a file's bytes when nothing visible uses it any more (no live message, sticker or
   * avatar), so that a withdrawn or deleted message's file stops being served.
   */
  async release(fileId: number): Promise<void> {
    if (!fileId) return;
    const file = await this.files.byId(fileId);
    if (!file?.storage_key) return;
    if ((await this.ctx.repos.messages.liveIdsWithFile(fileId, 1)).length) return;
    if (await this.files.inUse(fileId, storageUrl(file.storage_key))) return;
    await this.ctx.storage.remove(file.storage_key);
    const thumbKey = /^\/storage\/(.+)$/.exec(file.thumb)?.[1];
    if (thumbKey) await this.ctx.storage.remove(thumbKey);
  }
}
