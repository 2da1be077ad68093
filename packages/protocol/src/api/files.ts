import * as z from 'zod';
import { JSON_FIELD_MAX, KEYWORDS_MAX, PLACE_ADDRESS_MAX, PLACE_NAME_MAX } from '../limits';
import { personText, rowId } from './fields';
import { paging } from './friend';

/** `/common/upload/uploadFile` fields besides the file. */
export const UploadFileFields = z.object({
  /** A message to send with the file, as a JSON string of sendMessage's body (without file_id). */
  message: z.string().max(JSON_FIELD_MAX).optional(),
});

/** `/common/upload/uploadEmoji`: only the file. */
export const UploadEmojiFields = z.object({});

/** `/enterprise/emoji/index`. */
export const EmojiIndexBody = z.object({});

/** `/enterprise/emoji/add`: a sticker from an uploaded image or a received sticker/image message. */
export const EmojiAddBody = z.object({ file_id: rowId });

/** `/enterprise/emoji/del` and `/enterprise/emoji/move` (to the front). */
export const EmojiIdsBody = z.object({ ids: z.array(rowId).min(1).max(200) });

/**
 * `/enterprise/im/fileList` (and Raingad's `/enterprise/files/index`): files I sent (1) or
 * received (0), newest first.
 */
export const FileListBody = z.object({
  is_mine: z.coerce.number().int().min(0).max(1).default(1),
  /** Raingad's direction, instead of is_mine: 1 sent, 2 received, 0 both. */
  role: z.coerce.number().int().min(0).max(2).optional(),
  /** Raingad's "all files": 1 = every file I sent or received, whatever is_mine or role say. */
  is_all: z.coerce.number().int().min(0).max(1).optional(),
  /** 1 doc, 2 image, 3 audio, 4 video, 9 other. */
  cate: z.coerce.number().int().min(1).max(9).optional(),
  keywords: personText(KEYWORDS_MAX).optional(),
  ...paging,
});

/** Location message facts (docs/protocol.md §2 message types). */
export const LocationExtends = z.object({
  name: personText(PLACE_NAME_MAX, 1),
  address: personText(PLACE_ADDRESS_MAX).default(''),
  latitude: z.coerce.number().min(-90).max(90),
  longitude: z.coerce.number().min(-180).max(180),
});

/** Contact card message facts: the user it shows. */
export const ContactExtends = z.object({ id: rowId });
