import { EDITOR } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import {
  HISTORY_OPTIONS,
  INDENT_LEVELS,
  SANITIZED_LINK,
  clampIndent,
  editorHtml,
  isAllowedLink,
  nextIndent,
  normalizeLink,
  sanitizeLink,
} from './editor-config';

describe('announcement editor constants (docs/product.md §9)', () => {
  it('merges edits within 1000 ms and keeps at most 100 undo steps', () => {
    expect(HISTORY_OPTIONS).toMatchObject({ delay: 1000, maxStack: 100 });
    expect(HISTORY_OPTIONS.delay).toBe(EDITOR.historyDelayMs);
    expect(HISTORY_OPTIONS.maxStack).toBe(EDITOR.historyMaxSteps);
  });

  it('offers indent levels 1 to 8', () => {
    expect(INDENT_LEVELS).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('indent clamping', () => {
  it('holds any level to 0…8', () => {
    expect(clampIndent(9)).toBe(8);
    expect(clampIndent(100)).toBe(8);
    expect(clampIndent('9')).toBe(8);
    expect(clampIndent(-3)).toBe(0);
    expect(clampIndent(3.7)).toBe(3);
    expect(clampIndent('x')).toBe(0);
    expect(clampIndent(undefined)).toBe(0);
    expect(clampIndent(Infinity)).toBe(0);
  });

  it('steps with +1 and -1 and stops at the ends', () => {
    expect(nextIndent(0, '+1')).toBe(1);
    expect(nextIndent(7, '+1')).toBe(8);
    expect(nextIndent(8, '+1')).toBe(8);
    expect(nextIndent(1, '-1')).toBe(0);
    expect(nextIndent(0, '-1')).toBe(0);
    expect(nextIndent(2, 12)).toBe(8);
  });
});

describe('link protocols', () => {
  it('allows http, https, mailto and tel only', () => {
    for (const ok of ['http://a.example', 'HTTPS://a.example/x?y=1', 'mailto:me@example.com', 'tel:+8613800000000']) {
      expect(isAllowedLink(ok), ok).toBe(true);
      expect(normalizeLink(ok), ok).toBe(ok);
    }
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      'file:///etc/passwd',
      'sms:123',
      'ftp://example.com',
    ]) {
      expect(isAllowedLink(bad), bad).toBe(false);
      expect(normalizeLink(bad), bad).toBeNull();
      expect(sanitizeLink(bad), bad).toBe(SANITIZED_LINK);
    }
  });

  it('refuses links that hide a scheme behind spaces or control characters', () => {
    expect(normalizeLink('java\tscript:alert(1)')).toBeNull();
    expect(normalizeLink('java\nscript:alert(1)')).toBeNull();
    expect(normalizeLink('\u0001javascript:alert(1)')).toBeNull();
    expect(normalizeLink('https://exa mple.com')).toBeNull();
  });

  it('reads a bare host name as an https address, and refuses other scheme-less text', () => {
    expect(normalizeLink(' example.com/path ')).toBe('https://example.com/path');
    expect(normalizeLink('sub.example.org:8080')).toBe('https://sub.example.org:8080');
    expect(normalizeLink('//evil.example')).toBeNull();
    expect(normalizeLink('/relative')).toBeNull();
    expect(normalizeLink('hello')).toBeNull();
    expect(normalizeLink('')).toBeNull();
  });
});

describe('editor output', () => {
  it("drops Quill's list-marker spans and posts nothing for an empty editor", () => {
    expect(
      editorHtml('<ol><li data-list="bullet"><span class="ql-ui" contenteditable="false"></span>a</li></ol>', 'a\n'),
    ).toBe('<ol><li data-list="bullet">a</li></ol>');
    expect(editorHtml('<p><br></p>', '\n')).toBe('');
  });
});
