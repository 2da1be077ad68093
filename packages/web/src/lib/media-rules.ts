import { VIDEO_MAX_S } from '@sparrow/protocol';
import { mbToBytes } from './file-size';

/**
 * Recordings shorter than this are refused (docs/product.md §5: "a too-short recording is rejected"). A second,
 * as WeChat's "说话时间太短": a tap on the talk button is not a message.
 */
export const RECORDING_MIN_MS = 1000;
/** A voice message ends by itself after a minute, as in WeChat; the video limit is protocol's VIDEO_MAX_S. */
export const VOICE_MAX_S = 60;
/** The last seconds of a voice recording are counted down on screen. */
export const VOICE_COUNTDOWN_S = 10;
/** Timers stop a recording a little after its limit; the server allows the same half second. */
const LIMIT_SLACK_MS = 500;

export type LengthVerdict = 'ok' | 'tooShort' | 'tooLong';

/** Whether a recording made here may be sent: not under RECORDING_MIN_MS, not over `maxS`. */
export function judgeRecording(durationMs: number, maxS: number): LengthVerdict {
  if (!Number.isFinite(durationMs) || durationMs < RECORDING_MIN_MS) return 'tooShort';
  if (durationMs > maxS * 1000 + LIMIT_SLACK_MS) return 'tooLong';
  return 'ok';
}

/**
 * Whether a video picked from the album may be sent (docs/product.md §5: at most VIDEO_MAX_S). A length the
 * browser cannot read (a format it does not play) is left to the server, which measures it too.
 */
export function judgePickedVideo(durationS: number | null): 'ok' | 'tooLong' {
  if (durationS === null || !Number.isFinite(durationS)) return 'ok';
  return durationS * 1000 > VIDEO_MAX_S * 1000 + LIMIT_SLACK_MS ? 'tooLong' : 'ok';
}

/** The upload limits of getSystemInfo's `fileUpload`. */
export interface UploadLimits {
  /** MB. */
  size: number;
  fileExt: readonly string[];
  /** MB. */
  emojiSize: number;
}

export type UploadRefusal =
  | { reason: 'empty' }
  | { reason: 'tooLarge'; maxMb: number }
  | { reason: 'type'; ext: string }
  | { reason: 'notImage' };

/** The extension a file name ends with, lower case, '' when it has none. */
export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/**
 * Refuses, before any byte is sent, a file the server would refuse by its size or its name. The
 * server still judges the bytes; a name without an extension is left to it.
 */
export function checkUpload(
  file: { name: string; size: number },
  limits: UploadLimits | undefined,
): UploadRefusal | null {
  if (file.size <= 0) return { reason: 'empty' };
  if (!limits) return null;
  if (file.size > mbToBytes(limits.size)) return { reason: 'tooLarge', maxMb: limits.size };
  const ext = extensionOf(file.name);
  const allowed = limits.fileExt.map((e) => e.toLowerCase().replace(/^\./, ''));
  if (ext && allowed.length > 0 && !allowed.includes(ext)) return { reason: 'type', ext };
  return null;
}

/** Refuses a sticker that is not an image or is over `emojiSize`. */
export function checkSticker(
  file: { type: string; size: number },
  limits: UploadLimits | undefined,
): UploadRefusal | null {
  if (file.size <= 0) return { reason: 'empty' };
  if (!file.type.startsWith('image/')) return { reason: 'notImage' };
  if (limits && file.size > mbToBytes(limits.emojiSize)) return { reason: 'tooLarge', maxMb: limits.emojiSize };
  return null;
}
