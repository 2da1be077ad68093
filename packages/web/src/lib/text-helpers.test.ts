import { describe, expect, it } from 'vitest';
import { formatSize, linkify } from './linkify';
import { insertMention, mentionIds, typedAt } from './mentions';

describe('linkify', () => {
  it('links http, https, mailto and tel, leaving punctuation and other schemes as text', () => {
    expect(linkify('see https://a.test/x?y=1, ok')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'https://a.test/x?y=1', href: 'https://a.test/x?y=1' },
      { kind: 'text', text: ', ok' },
    ]);
    expect(linkify('mail mailto:a@b.co.').map((p) => p.kind)).toEqual(['text', 'link', 'text']);
    expect(linkify('call tel:+86 10 1234')[1]).toEqual({
      kind: 'link',
      text: 'tel:+86 10 1234',
      href: 'tel:+86101234',
    });
    expect(linkify('javascript:alert(1) ftp://x')).toEqual([{ kind: 'text', text: 'javascript:alert(1) ftp://x' }]);
    expect(linkify('看这里http://例子.cn。')).toEqual([
      { kind: 'text', text: '看这里' },
      { kind: 'link', text: 'http://例子.cn', href: 'http://例子.cn' },
      { kind: 'text', text: '。' },
    ]);
  });

  it('sizes files in B, KB, MB, GB and TB', () => {
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(10 * 1024 * 1024)).toBe('10 MB');
    expect(formatSize(3 * 1024 ** 4)).toBe('3 TB');
  });
});

describe('mentions', () => {
  it('opens the picker on an @ typed at the start or after a space, not inside an address', () => {
    expect(typedAt('', '@', 1)).toBe(true);
    expect(typedAt('hi ', 'hi @', 4)).toBe(true);
    expect(typedAt('你好', '你好@', 3)).toBe(true);
    expect(typedAt('mail me', 'mail@ me', 5)).toBe(false);
    expect(typedAt('ab', 'ab@@', 4)).toBe(false);
  });

  it('writes the picked name after the @ and keeps only names still in the text', () => {
    const r = insertMention('hi @ there', 4, 'Bob');
    expect(r).toEqual({ text: 'hi @Bob  there', caret: 8 });
    const picked = [
      { id: 2, name: 'Bob' },
      { id: 3, name: 'Carol' },
      { id: 2, name: 'Bob' },
    ];
    expect(mentionIds('@Bob hello', picked)).toEqual([2]);
    expect(mentionIds('@所有人 @Carol', [{ id: 0, name: '所有人' }, ...picked])).toEqual([0, 3]);
  });
});
