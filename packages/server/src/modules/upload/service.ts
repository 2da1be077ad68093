import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AVATAR_SIZE } from '@sparrow/protocol';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { loadFileType, loadSharp } from '../../lib/lazy';
import { storageUrl } from '../../storage/storage';
import { type FileRepo } from './repo';

const IMAGE_EXT = new Set(['jpg', 'png', 'gif', 'webp', 'bmp', 'avif']);

/** Reads the request's single file, refusing one over `maxMb` megabytes. */
export async function readUpload(
  req: FastifyRequest,
  maxMb: number,
  /** Runs on the fields sent before the file, before any byte of it is read (permission checks). */
  before?: (file: MultipartFile) => Promise<void>,
): Promise<{ file: MultipartFile; bytes: Buffer }> {
  let file: MultipartFile | undefined;
  try {
    file = await req.file({ limits: { fileSize: Math.floor(maxMb * 1024 * 1024), files: 1 } });
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
      throw new AppError('FileMissing', {}, { fields: ['file'] });
    // Nothing but the request's own headers and bytes has been read yet: whatever failed is the
    // caller's doing (a multipart type without a boundary, a header the parser cannot read).
    throw new AppError('UploadMalformed', {}, { fields: ['file'] });
  }
  if (!file) throw new AppError('FileMissing', {}, { fields: ['file'] });
  if (before) await before(file);
  try {
    const bytes = await file.toBuffer();
    return { file, bytes };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('FileTooLarge', { size: maxMb });
    // A body that ends inside the file (no closing boundary, cut short) is the caller's error, not ours.
    if (code === 'ERR_STREAM_PREMATURE_CLOSE') throw new AppError('UploadMalformed', {}, { fields: ['file'] });
    throw err;
  }
}

/** Uploads: the file's type is judged by its bytes, never by its name. */
export class UploadService {
  private readonly files: FileRepo;

  constructor(private readonly ctx: AppContext) {
    this.files = ctx.repos.files;
  }

  /** An avatar: an image, squared and resized, stored content-addressed; returns its URL. */
  async avatar(req: FastifyRequest): Promise<string> {
    return (await this.avatarWithFields(req)).url;
  }

  /** As `avatar`, first handing the form fields sent before the file to `before`. */
  async avatarWithFields(
    req: FastifyRequest,
    before?: (file: MultipartFile) => Promise<void>,
  ): Promise<{ file: MultipartFile; url: string }> {
    const { file, bytes } = await readUpload(req, this.ctx.config.get().fileUpload.size, before);
    return { file, url: await this.storeAvatar(bytes) };
  }

  private async storeAvatar(bytes: Buffer): Promise<string> {
    const type = await (await loadFileType()).fileTypeFromBuffer(bytes);
    if (!type || !IMAGE_EXT.has(type.ext)) throw new AppError('FileTypeForbidden');
    let out: Buffer;
    try {
      out = await loadSharp()(bytes, { animated: false })
        .rotate()
        .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
        .webp({ quality: 85 })
        .toBuffer();
    } catch {
      throw new AppError('FileTypeForbidden');
    }
    const { key, hash } = await this.ctx.storage.put(out, 'webp');
    await this.files.insertUnlessStored({
      hash,
      ext: 'webp',
      mime: 'image/webp',
      size: out.length,
      cate: 2,
      width: AVATAR_SIZE,
      height: AVATAR_SIZE,
      storage_key: key,
      create_time: this.ctx.now(),
    });
    return storageUrl(key);
  }
}
