import { describe, expect, it } from 'vitest';
import { formatFileSize, mbToBytes } from './file-size';

describe('formatFileSize', () => {
  it('uses B, KB, MB, GB and TB, 1024 apart', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1)).toBe('1 B');
    expect(formatFileSize(1023)).toBe('1023 B');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(5 * 1024 ** 2)).toBe('5 MB');
    expect(formatFileSize(3.25 * 1024 ** 3)).toBe('3.3 GB');
    expect(formatFileSize(2 * 1024 ** 4)).toBe('2 TB');
  });

  it('keeps one decimal under 100 and none from 100 up', () => {
    expect(formatFileSize(12.34 * 1024)).toBe('12.3 KB');
    expect(formatFileSize(99.94 * 1024)).toBe('99.9 KB');
    expect(formatFileSize(123.6 * 1024 ** 2)).toBe('124 MB');
  });

  it('never shows 1024 of a unit: it rounds up into the next', () => {
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1 MB');
    expect(formatFileSize(1024 ** 3 - 10)).toBe('1 GB');
  });

  it('stays in TB beyond it', () => {
    expect(formatFileSize(2048 * 1024 ** 4)).toBe('2048 TB');
  });

  it('reads nonsense as nothing', () => {
    expect(formatFileSize(-5)).toBe('0 B');
    expect(formatFileSize(Number.NaN)).toBe('0 B');
    expect(formatFileSize(Number.POSITIVE_INFINITY)).toBe('0 B');
  });

  it('converts configured megabytes to bytes', () => {
    expect(mbToBytes(50)).toBe(52_428_800);
    expect(mbToBytes(2)).toBe(2_097_152);
  });
});
