import { describe, expect, it } from 'vitest';
import { frameSandbox, safeWebUrl } from './url';

describe('in-app browser addresses', () => {
  it('opens http and https only', () => {
    expect(safeWebUrl('https://example.com/a?b=1')?.href).toBe('https://example.com/a?b=1');
    expect(safeWebUrl('http://example.com')?.host).toBe('example.com');
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,hi',
      'file:///etc/passwd',
      'ftp://x.y',
      '/relative',
      '',
      null,
    ]) {
      expect(safeWebUrl(bad), String(bad)).toBeNull();
    }
  });

  it('never gives a page of our own origin both scripts and same-origin', () => {
    const own = safeWebUrl('http://localhost:8000/storage/x.html')!;
    expect(frameSandbox(own, 'http://localhost:8000')).not.toContain('allow-same-origin');
    const other = safeWebUrl('https://example.com')!;
    expect(frameSandbox(other, 'http://localhost:8000')).toContain('allow-same-origin');
  });
});
