import { describe, expect, it } from 'vitest';
import { LOCALES, negotiateLocale } from './locales';
import { serverMessages } from './messages/index';
import { LoginBody, RegisterBody } from './api/common';
import { routes } from './routes';
import { messagePreview } from './preview';
import { newContact } from './entities';

describe('locales', () => {
  it('negotiates Accept-Language: zh-Hans by default, English when nothing matches', () => {
    expect(negotiateLocale(undefined)).toBe('zh-Hans');
    expect(negotiateLocale('zh-CN,zh;q=0.9')).toBe('zh-Hans');
    expect(negotiateLocale('zh-TW')).toBe('zh-Hant');
    expect(negotiateLocale('zh-Hant-HK')).toBe('zh-Hant');
    expect(negotiateLocale('fr-FR,en;q=0.5')).toBe('fr');
    expect(negotiateLocale('de-DE,es;q=0.8,en;q=0.9')).toBe('en');
    expect(negotiateLocale('de-DE')).toBe('en');
    expect(negotiateLocale('*')).toBe('zh-Hans');
    expect(negotiateLocale('es, *;q=0.5')).toBe('es');
  });

  it('has every server message in all five locales, none empty', () => {
    const source = Object.keys(serverMessages['zh-Hans']);
    for (const locale of LOCALES) {
      const catalogue = serverMessages[locale] as Record<string, string>;
      const missing = source.filter((k) => !catalogue[k]?.trim());
      expect(missing, `${locale} lacks keys`).toEqual([]);
    }
  });
});

describe('schemas', () => {
  it('enforces the account and password lengths of spec §5', () => {
    expect(LoginBody.safeParse({ account: 'abc', password: 'secret1' }).success).toBe(false);
    expect(LoginBody.safeParse({ account: 'abcd', password: 'secret1' }).success).toBe(true);
    expect(LoginBody.safeParse({ account: 'a'.repeat(33), password: 'secret1' }).success).toBe(false);
    expect(LoginBody.safeParse({ account: 'abcd', password: '12345' }).success).toBe(false);
    expect(LoginBody.safeParse({ account: 'abcd', password: '1'.repeat(17) }).success).toBe(false);
    expect(LoginBody.safeParse({ account: 'abcd' }).success).toBe(false);
  });

  it('requires matching passwords on register and drops unknown keys', () => {
    const bad = RegisterBody.safeParse({ account: 'abcd', password: 'secret1', repassword: 'secret2', realname: 'A' });
    expect(bad.success).toBe(false);
    const good = RegisterBody.parse({ account: ' abcd ', password: 'secret1', realname: 'A', role: 1 });
    expect(good).toEqual({ account: 'abcd', password: 'secret1', realname: 'A' });
  });

  it('spells every route path once', () => {
    const paths = Object.values(routes).map((r) => r.path.toLowerCase());
    expect(new Set(paths).size).toBe(paths.length);
  });
});

describe('messagePreview', () => {
  const t = (key: string, params: Record<string, string> = {}) => `${key}(${params.name ?? ''})`;
  const m = (type: string, content = '', ext: Record<string, unknown> = {}, fileName?: string) => ({
    type,
    content,
    extends: ext,
    fileName,
  });

  it('flattens text to one line of at most 100 characters', () => {
    expect(messagePreview(m('text', 'a\n\n b\tc'), t)).toBe('a b c');
    expect(messagePreview(m('text', 'x'.repeat(150)), t)).toHaveLength(100);
  });

  it('words media, files, places and cards with the name they carry', () => {
    expect(messagePreview(m('image', '/storage/a.png'), t)).toBe('preview.image()');
    expect(messagePreview(m('webrtc'), t)).toBe('preview.webrtc()');
    expect(messagePreview(m('file', '/s', { name: 'a.pdf' }), t)).toBe('preview.file(a.pdf)');
    expect(messagePreview(m('file', '/s', { name: 'a.pdf' }, 'shown.pdf'), t)).toBe('preview.file(shown.pdf)');
    expect(messagePreview(m('location', '', { name: 'Park' }), t)).toBe('preview.location(Park)');
    expect(messagePreview(m('contact', '', { displayName: 'Ann', name: 7 }), t)).toBe('preview.contact(Ann)');
    expect(messagePreview(m('location', '', { name: 42 }), t)).toBe('preview.location()');
  });
});

describe('newContact', () => {
  it('starts a row with nothing unread, notifications on, under #; what is given wins', () => {
    expect(newContact({ id: 'system', displayName: '系统通知', is_group: 2 })).toEqual({
      id: 'system',
      displayName: '系统通知',
      avatar: '',
      lastContent: '',
      lastSendTime: 0,
      type: '',
      is_group: 2,
      unread: 0,
      is_top: 0,
      is_notice: 1,
      is_at: 0,
      is_online: 0,
      index: '#',
      notice: '',
      setting: {},
    });
    const muted = newContact({ id: 7, displayName: 'Ann', is_group: 0, is_notice: 0, unread: 3, index: 'A' });
    expect(muted).toMatchObject({ id: 7, is_notice: 0, unread: 3, index: 'A', is_top: 0 });
    expect(Object.keys(muted).slice(0, 2)).toEqual(['id', 'displayName']);
  });
});
