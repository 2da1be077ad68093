import { VIDEO_MAX_S } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import {
  checkSticker,
  checkUpload,
  extensionOf,
  judgePickedVideo,
  judgeRecording,
  RECORDING_MIN_MS,
  VOICE_MAX_S,
} from './media-rules';

const limits = { size: 1, fileExt: ['jpg', 'png', 'pdf', 'webm'], emojiSize: 0.5 };

describe('recording rules', () => {
  it('refuses a recording shorter than a second', () => {
    expect(RECORDING_MIN_MS).toBe(1000);
    expect(judgeRecording(0, VOICE_MAX_S)).toBe('tooShort');
    expect(judgeRecording(999, VOICE_MAX_S)).toBe('tooShort');
    expect(judgeRecording(1000, VOICE_MAX_S)).toBe('ok');
    expect(judgeRecording(Number.NaN, VOICE_MAX_S)).toBe('tooShort');
  });

  it('accepts up to the limit, with the half second the timers need, and refuses longer', () => {
    expect(VIDEO_MAX_S).toBe(60);
    expect(judgeRecording(3000, VIDEO_MAX_S)).toBe('ok');
    expect(judgeRecording(60_000, VIDEO_MAX_S)).toBe('ok');
    expect(judgeRecording(60_400, VIDEO_MAX_S)).toBe('ok');
    expect(judgeRecording(61_000, VIDEO_MAX_S)).toBe('tooLong');
  });

  it('refuses a picked video over 60 s and leaves one of unknown length to the server', () => {
    expect(judgePickedVideo(5)).toBe('ok');
    expect(judgePickedVideo(60)).toBe('ok');
    expect(judgePickedVideo(61)).toBe('tooLong');
    expect(judgePickedVideo(3600)).toBe('tooLong');
    expect(judgePickedVideo(null)).toBe('ok');
    expect(judgePickedVideo(Number.POSITIVE_INFINITY)).toBe('ok');
  });
});

describe('upload limits', () => {
  it('reads the extension from the name', () => {
    expect(extensionOf('Report.PDF')).toBe('pdf');
    expect(extensionOf('archive.tar.gz')).toBe('gz');
    expect(extensionOf('.bashrc')).toBe('');
    expect(extensionOf('README')).toBe('');
    expect(extensionOf('dir.v2/file')).toBe('');
  });

  it('refuses an empty file, one over the size and one of a type not allowed', () => {
    expect(checkUpload({ name: 'a.pdf', size: 0 }, limits)).toEqual({ reason: 'empty' });
    expect(checkUpload({ name: 'a.pdf', size: 1024 * 1024 }, limits)).toBeNull();
    expect(checkUpload({ name: 'a.pdf', size: 1024 * 1024 + 1 }, limits)).toEqual({ reason: 'tooLarge', maxMb: 1 });
    expect(checkUpload({ name: 'setup.exe', size: 10 }, limits)).toEqual({ reason: 'type', ext: 'exe' });
    expect(checkUpload({ name: 'PHOTO.JPG', size: 10 }, limits)).toBeNull();
  });

  it('leaves a name without extension, or missing limits, to the server', () => {
    expect(checkUpload({ name: 'notes', size: 10 }, limits)).toBeNull();
    expect(checkUpload({ name: 'x.exe', size: 10 }, undefined)).toBeNull();
  });

  it('stickers must be images within emojiSize', () => {
    expect(checkSticker({ type: 'image/gif', size: 512 * 1024 }, limits)).toBeNull();
    expect(checkSticker({ type: 'image/gif', size: 512 * 1024 + 1 }, limits)).toEqual({
      reason: 'tooLarge',
      maxMb: 0.5,
    });
    expect(checkSticker({ type: 'application/pdf', size: 10 }, limits)).toEqual({ reason: 'notImage' });
    expect(checkSticker({ type: 'image/png', size: 0 }, limits)).toEqual({ reason: 'empty' });
  });
});
