import { describe, expect, it } from 'vitest';
import { formatClockDuration, storageUrl } from './media-url';

describe('storageUrl', () => {
  const origin = 'http://sparrow.test';
  it('keeps our own stored files', () => {
    expect(storageUrl('/storage/ab/cd.mp4', origin)).toBe('/storage/ab/cd.mp4');
    expect(storageUrl('http://sparrow.test/storage/x.webm?name=a', origin)).toBe('/storage/x.webm?name=a');
  });
  it('refuses other origins, other paths and scripts', () => {
    expect(storageUrl('https://evil.test/storage/x.mp4', origin)).toBeNull();
    expect(storageUrl('/common/upload/uploadFile', origin)).toBeNull();
    expect(storageUrl('javascript:alert(1)', origin)).toBeNull();
    expect(storageUrl('//evil.test/storage/x', origin)).toBeNull();
    expect(storageUrl('', origin)).toBeNull();
    expect(storageUrl(null, origin)).toBeNull();
  });
});

describe('formatClockDuration', () => {
  it('reads m:ss', () => {
    expect(formatClockDuration(5)).toBe('0:05');
    expect(formatClockDuration(59.6)).toBe('1:00');
    expect(formatClockDuration(75)).toBe('1:15');
    expect(formatClockDuration(Number.NaN)).toBe('0:00');
  });
});
