import type { MultipartFile } from '@fastify/multipart';
import { UploadFileFields } from '@sparrow/protocol';
import { AppError } from '../../errors';
import { localeOf, ok, validationError } from '../../http/envelope';
import { parseBody, socketOf, type Handlers } from '../../http/route';
import type { Storage } from '../../storage/storage';
import type { MessageSender } from '../events';
import type { ConfigService } from '../system';
import type { FileService } from './files';
import { readUpload, type UploadService } from './service';

/** `/common/upload/*`. */
export function uploadRoutes(
  ctx: { config: ConfigService; storage: Storage },
  services: {
    uploads: UploadService;
    files: FileService;
    /** The user module's UserService: a new avatar is its change to tell of. */
    users: { setAvatar(userId: number, url: string): Promise<void> };
    pipeline: MessageSender;
  },
): Handlers {
  const { uploads, files, users, pipeline } = services;
  return {
    uploadAvatar: async ({ req, session }) => {
      const url = await uploads.avatar(req);
      await users.setAvatar(session.userId, url);
      return ok(url, { msg: 'ok.saved' });
    },
    uploadFile: async ({ req, session }) => {
      const { fileUpload } = ctx.config.get();
      // The message to send with the file, from the `message` field before or after the file part.
      const messageOf = (f: MultipartFile): unknown => {
        const field = f.fields.message;
        const sent = { message: field && !Array.isArray(field) && 'value' in field ? field.value : undefined };
        const fields = UploadFileFields.safeParse(sent);
        if (!fields.success) throw validationError(fields.error, localeOf(req), sent);
        if (fields.data.message === undefined) return undefined;
        try {
          return JSON.parse(fields.data.message);
        } catch {
          throw new AppError('Validation', {}, { fields: ['message'] });
        }
      };
      const { file, staged } = await readUpload(req, ctx.storage, fileUpload.size, async (f) => {
        messageOf(f);
      });
      const message = messageOf(file);
      const ext = await files.judge(staged, file.filename, fileUpload.fileExt);
      const stored = await files.store(staged, ext, file.filename, session.userId);
      if (message === undefined) return files.result(stored.file, stored.name);
      // Read as sendMessage reads its body (an old client's blanks are absent): one parse path.
      const body = parseBody('sendMessage', { ...(message as object), file_id: stored.file.id }, req);
      return pipeline.send(session, body, socketOf(req));
    },
  };
}
