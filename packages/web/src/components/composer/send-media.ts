import { VIDEO_MAX_S, type Contact, type EmojiItem } from '@sparrow/protocol';
import { engineFor } from '../../chat/registry';
import { translate } from '../../i18n';
import type { ContactKey } from '../../lib/conversation-list';
import { attachKind, givenVideoKind } from '../../lib/dropped-files';
import { formatFileSize, mbToBytes } from '../../lib/file-size';
import type { CaptureResult } from '../../lib/media-recorder';
import { checkUpload, judgePickedVideo, type UploadRefusal } from '../../lib/media-rules';
import { probeImage, probeVideo } from '../../lib/media-probe';
import { configStore } from '../../stores/config';
import { feedback } from '../feedback';
import type { Place } from '../location/place-search';

function limits() {
  return configStore.getState().config?.fileUpload;
}

/** Says why a file was refused before sending it; answers whether it may go. */
export function refuse(refusal: UploadRefusal | null, name: string): boolean {
  if (!refusal) return false;
  switch (refusal.reason) {
    case 'empty':
      feedback.toast(translate('media.limits.empty', { name }));
      break;
    case 'tooLarge':
      feedback.toast(translate('media.limits.tooLarge', { name, max: formatFileSize(mbToBytes(refusal.maxMb)) }));
      break;
    case 'type':
      feedback.toast(translate('media.limits.type', { ext: refusal.ext }));
      break;
    case 'notImage':
      feedback.toast(translate('media.limits.notImage'));
      break;
  }
  return true;
}

/** Sends pictures picked from the album, each as its own message, in the order picked. */
export async function sendImages(chatKey: ContactKey, files: readonly File[]): Promise<void> {
  for (const file of files) {
    if (file.type.startsWith('video/')) {
      await sendVideoFile(chatKey, file);
      continue;
    }
    if (refuse(checkUpload(file, limits()), file.name)) continue;
    const size = await probeImage(file);
    engineFor(chatKey).send({
      type: 'image',
      attachment: { file, name: file.name || 'image.jpg' },
      preview: { url: URL.createObjectURL(file), ...(size ?? {}) },
    });
  }
}

/** Sends a video picked from the album: at most VIDEO_MAX_S long (docs/product.md §5), with its poster. */
export async function sendVideoFile(chatKey: ContactKey, file: File): Promise<void> {
  if (refuse(checkUpload(file, limits()), file.name)) return;
  const info = await probeVideo(file);
  if (judgePickedVideo(info.durationS) === 'tooLong') {
    feedback.toast(translate('media.video.tooLong', { max: VIDEO_MAX_S }));
    return;
  }
  sendVideo(chatKey, file, file.name || 'video.mp4', info.durationS ?? 0, info);
}

/** Sends a recorded or picked video with what the browser measured (docs/protocol.md: client-sent extends). */
export function sendVideo(
  chatKey: ContactKey,
  blob: Blob,
  name: string,
  durationS: number,
  info: { width: number; height: number; poster: Blob | null },
): void {
  engineFor(chatKey).send({
    type: 'video',
    extends: { duration: Math.round(durationS * 10) / 10, width: info.width, height: info.height },
    attachment: { file: blob, name, ...(info.poster && { poster: info.poster }) },
    preview: {
      ...(info.poster && { url: URL.createObjectURL(info.poster) }),
      durationS,
      width: info.width,
      height: info.height,
    },
  });
}

/** Sends a recording made with the camera (already judged long enough). */
export async function sendRecordedVideo(chatKey: ContactKey, recording: CaptureResult): Promise<void> {
  if (refuse(checkUpload({ name: recording.fileName, size: recording.blob.size }, limits()), recording.fileName))
    return;
  const info = await probeVideo(recording.blob);
  sendVideo(chatKey, recording.blob, recording.fileName, recording.durationMs / 1000, info);
}

/** Sends any file as a file message (documents, archives…), with progress and cancel. */
export function sendFile(chatKey: ContactKey, file: File): void {
  if (refuse(checkUpload(file, limits()), file.name)) return;
  engineFor(chatKey).send({
    type: 'file',
    attachment: { file, name: file.name },
    preview: { name: file.name, size: file.size },
  });
}

/**
 * Sends files pasted or dropped into a chat, each as its own message in their order: pictures and
 * videos as the album sends them, anything else (and a video too long for a video message) as 文件 does.
 */
export async function sendAttachments(chatKey: ContactKey, files: readonly File[]): Promise<void> {
  for (const file of files) {
    const kind = attachKind(file);
    if (kind === 'file') sendFile(chatKey, file);
    else if (kind === 'video') await sendGivenVideo(chatKey, file);
    else await sendImages(chatKey, [file]);
  }
}

/** A pasted or dropped video: as a video message, or as a file when longer than one may be. */
async function sendGivenVideo(chatKey: ContactKey, file: File): Promise<void> {
  if (refuse(checkUpload(file, limits()), file.name)) return;
  const info = await probeVideo(file);
  if (givenVideoKind(info.durationS) === 'file') sendFile(chatKey, file);
  else sendVideo(chatKey, file, file.name || 'video.mp4', info.durationS ?? 0, info);
}

/** Sends a voice recording (already judged long enough). */
export function sendVoice(chatKey: ContactKey, recording: CaptureResult): void {
  if (refuse(checkUpload({ name: recording.fileName, size: recording.blob.size }, limits()), recording.fileName))
    return;
  const seconds = Math.max(1, Math.round(recording.durationMs / 1000));
  engineFor(chatKey).send({
    type: 'voice',
    extends: { duration: seconds },
    attachment: { file: recording.blob, name: recording.fileName },
    preview: { durationS: seconds },
  });
}

export function sendLocation(chatKey: ContactKey, place: Place): void {
  engineFor(chatKey).send({
    type: 'location',
    extends: { name: place.name, address: place.address, latitude: place.latitude, longitude: place.longitude },
    preview: { name: place.name, label: place.address },
  });
}

/** Sends a contact card of a user; the server fills in their name and picture. */
export function sendContactCard(
  chatKey: ContactKey,
  person: Pick<Contact, 'displayName' | 'avatar'> & { user_id: number },
) {
  engineFor(chatKey).send({
    type: 'contact',
    extends: { id: person.user_id },
    preview: { name: person.displayName, url: person.avatar },
  });
}

export function sendSticker(chatKey: ContactKey, sticker: EmojiItem): void {
  engineFor(chatKey).send({
    type: 'emoji',
    content: sticker.src,
    extends: { file_id: sticker.file_id },
    preview: { url: sticker.src },
  });
}
