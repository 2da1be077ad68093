import { describe, expect, it } from 'vitest';
import { fitThumb, num, str } from './media-fields';

describe('fitThumb', () => {
  it('keeps the shape with the long side at 150', () => {
    expect(fitThumb(1600, 1200)).toEqual({ width: 150, height: 113 });
    expect(fitThumb(1080, 1920)).toEqual({ width: 84, height: 150 });
    expect(fitThumb(40, 40)).toEqual({ width: 150, height: 150 });
  });
  it('crops very long or very wide pictures at 60 on the short side', () => {
    expect(fitThumb(3000, 100)).toEqual({ width: 150, height: 60 });
    expect(fitThumb(100, 5000)).toEqual({ width: 60, height: 150 });
  });
  it('shows a square when the size is unknown', () => {
    expect(fitThumb(0, 0)).toEqual({ width: 150, height: 150 });
  });
});

describe('extends fields', () => {
  it('reads strings and numbers defensively', () => {
    expect(str('a')).toBe('a');
    expect(str(3)).toBe('');
    expect(num(3)).toBe(3);
    expect(num('4.5')).toBe(4.5);
    expect(num('')).toBe(0);
    expect(num(Number.NaN)).toBe(0);
    expect(num(undefined)).toBe(0);
  });
});
