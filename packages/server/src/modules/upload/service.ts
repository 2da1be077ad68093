import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AVATAR_SIZE, routes } from '@sparrow/protocol';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import { noteStaged } from '../../http/uploads';
import { loadFileType } from '../../lib/lazy';
import { type StagedFile, type Storage, storageUrl } from '../../storage/storage';
import { openImage } from './image';
import type { ConfigService } from '../system';
import { withStagedBytes } from './files';
import { type FileRepo } from './repo';

const IMAGE_EXT = new Set(['jpg', 'png', 'gif', 'webp', 'bmp', 'avif']);

/** The most form fields an upload carries beside its file (uploadFile's `message`, a group's id). */
const UPLOAD_FIELDS_MAX = 8;
/** The largest form field of any upload, bytes: what the largest multipart route takes. */
const UPLOAD_FIELD_BYTES = Math.max(...Object.values(routes).map((r) => ('multipart' in r ? r.bodyLimit : 0)));

/**
 * Reads the request's single file into a temporary file of `storage` (hashed on the way; never
 * whole in memory), refusing one over `maxMb` megabytes, and the form's fields whichever side of
 * the file they come (`file.fields` holds them all once this returns). The file is removed once
 * the request's answer is decided (`discardStaged`).
 */
export async function readUpload(
  req: FastifyRequest,
  storage: Storage,
  maxMb: number,
  /** Runs on the fields sent before the file, before any byte of it is read (permission checks). */
  before?: (file: MultipartFile) => Promise<void>,
): Promise<{ file: MultipartFile; staged: StagedFile }> {
  let file: MultipartFile | undefined;
  let staged: StagedFile | undefined;
  const parts = req.parts({
    limits: {
      fileSize: Math.floor(maxMb * 1024 * 1024),
      files: 1,
      fields: UPLOAD_FIELDS_MAX,
      fieldSize: UPLOAD_FIELD_BYTES,
      parts: UPLOAD_FIELDS_MAX + 1,
    },
  });
  try {
    // Fields gather in each part's `fields`; the one file is staged as it comes.
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      file = part;
      staged = await stagePart(req, storage, part, before);
      // busboy stops at the limit and marks the stream truncated rather than failing it.
      if (part.file.truncated) throw new AppError('FileTooLarge', { size: maxMb });
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    // The server's own failure while judging the fields (a database error): not the caller's.
    if (err instanceof BeforeFailed) throw err.cause;
    if ((err as { code?: string }).code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
      throw new AppError('FileMissing', {}, { fields: ['file'] });
    // Whatever else failed came from the body: a multipart type without a boundary, a header the
    // parser cannot read, a part cut early, a body that ends inside the file (busboy's "Unexpected
    // end of form"), a client gone. The caller's error, not ours.
    throw new AppError('UploadMalformed', {}, { fields: ['file'] });
  }
  if (!file || !staged) throw new AppError('FileMissing', {}, { fields: ['file'] });
  return { file, staged };
}

/** A failure of `readUpload`'s `before` that is not a refusal: passed on as it is. */
class BeforeFailed extends Error {
  constructor(override readonly cause: unknown) {
    super('upload: checking the fields failed');
  }
}

/** The file part staged, after `before` has looked at the fields sent ahead of it. */
async function stagePart(
  req: FastifyRequest,
  storage: Storage,
  file: MultipartFile,
  before?: (file: MultipartFile) => Promise<void>,
): Promise<StagedFile> {
  // busboy tells of a body that ends inside the file by emitting 'error' on the file's stream
  // without destroying it: heard while nothing reads it yet (during `before`, or before the
  // staging file is open), it would leave the reader that comes later waiting for ever.
  const stream = file.file;
  stream.once('error', (err) => stream.destroy(err));
  if (before) {
    try {
      await before(file);
    } catch (err) {
      // Refused before any byte of the file was read: the rest of the body is not wanted.
      stream.resume();
      throw err instanceof AppError ? err : new BeforeFailed(err);
    }
  }
  const staged = await storage.stage(file.file);
  noteStaged(req, staged.path);
  return staged;
}

/** What UploadService is built from. */
export interface UploadParts {
  repos: Pick<Repos, 'files'>;
  storage: Storage;
  config: ConfigService;
  now: () => number;
}

/** Uploads: the file's type is judged by its bytes, never by its name. */
export class UploadService {
  private readonly files: FileRepo;

  constructor(private readonly ctx: UploadParts) {
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
    const { file, staged } = await readUpload(req, this.ctx.storage, this.ctx.config.get().fileUpload.size, before);
    return { file, url: await this.storeAvatar(staged) };
  }

  /** An avatar from bytes the server fetched (a provider's picture claim): checked and stored as an upload's. */
  async avatarFromBytes(bytes: Buffer): Promise<string> {
    return withStagedBytes(this.ctx.storage, bytes, (staged) => this.storeAvatar(staged));
  }

  private async storeAvatar(staged: StagedFile): Promise<string> {
    const type = await (await loadFileType()).fileTypeFromFile(staged.path);
    if (!type || !IMAGE_EXT.has(type.ext)) throw new AppError('FileTypeForbidden');
    const { image } = await openImage(staged.path);
    let out: Buffer;
    try {
      out = await image.rotate().resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' }).webp({ quality: 85 }).toBuffer();
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
