import { describe, expect, it } from 'vitest';
import { LOCALES, negotiateLocale, preferredLocale, statesLanguage } from './locales';
import { serverMessages } from './messages/index';
import { LoginBody, RegisterBody } from './api/common';
import { LOGIN_PASSWORD_MAX } from './limits';
import { routes } from './routes';
import { messagePreview } from './preview';
import { isMessageOf, MessageFactsSchema, newContact, type Message } from './entities';
import { DEFAULT_GLOBAL_CONFIG } from './config';
import { CONFIG_KEYS, configControl, type ConfigKey } from './api/manage';
import { EventLineSchema } from './event-lines';
import { parseServerFrame, PushEventSchemas, type PushEvent } from './events';

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
    // Text that names no language, as a client that has not chosen one sends, is no language at all.
    expect(negotiateLocale('undefined')).toBe('zh-Hans');
    expect(negotiateLocale('null, en;q=0.1')).toBe('en');
    expect([statesLanguage('undefined'), statesLanguage('*'), statesLanguage(''), statesLanguage('fr')]).toEqual([
      false,
      false,
      false,
      true,
    ]);
  });

  it("follows a device's languages: the first supported one, zh-Hans when none is", () => {
    expect(preferredLocale(['de-DE', 'en-GB', 'fr'])).toBe('en');
    expect(preferredLocale(['zh-TW'])).toBe('zh-Hant');
    expect(preferredLocale(['es-419'])).toBe('es');
    expect(preferredLocale(['de-DE'])).toBe('zh-Hans');
    expect(preferredLocale([])).toBe('zh-Hans');
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
  it('enforces the account and password lengths of docs/product.md §5', () => {
    expect(LoginBody.safeParse({ account: 'abc', password: 'secret1' }).success).toBe(false);
    expect(LoginBody.safeParse({ account: 'abcd', password: 'secret1' }).success).toBe(true);
    expect(LoginBody.safeParse({ account: 'a'.repeat(33), password: 'secret1' }).success).toBe(false);
    // A sign-in takes a directory's password too: any length up to LOGIN_PASSWORD_MAX.
    expect(LoginBody.safeParse({ account: 'abcd', password: '' }).success).toBe(false);
    expect(LoginBody.safeParse({ account: 'abcd', password: '1'.repeat(LOGIN_PASSWORD_MAX) }).success).toBe(true);
    expect(LoginBody.safeParse({ account: 'abcd', password: '1'.repeat(LOGIN_PASSWORD_MAX + 1) }).success).toBe(false);
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

describe('push frames', () => {
  const fromUser = { id: 2, user_id: 2, realname: 'Ann', displayName: 'Ann', avatar: '' };
  const base = {
    id: 'c0ffee00-0000-4000-8000-000000000001',
    msg_id: 7,
    content: 'hi',
    sendTime: 1_700_000_000_000,
    toContactId: 2,
    toUser: 2,
    is_group: 0 as const,
    status: 'succeed' as const,
    is_read: 0 as const,
    at: [],
    pid: 0,
    fromUser,
  };
  const text: Message = { ...base, type: 'text', extends: {} };
  const group = newContact({ id: 'group-3', group_id: 'group-3', displayName: 'Team', is_group: 1, role: 3 });
  const frame = (event: PushEvent) => ({ ...event, time: 1_700_000_000 });

  /** At least one payload of every push event, as the server sends it. */
  const examples: PushEvent[] = [
    { type: 'isOnline', data: { id: 2, is_online: 1 } },
    { type: 'offline', data: { id: 2, client_id: 'abc', isMobile: false } },
    { type: 'updateConfig', data: DEFAULT_GLOBAL_CONFIG },
    { type: 'simple', data: { ...text, contactInfo: newContact({ id: 2, displayName: 'Ann', is_group: 0 }) } },
    {
      type: 'simple',
      data: {
        ...base,
        id: 'friend-5-request',
        msg_id: 0,
        type: 'event',
        toContactId: 1,
        is_group: 2,
        fromUser: { id: 'system', user_id: 'system', realname: '', displayName: 'New friends', avatar: '' },
        extends: { event: 'friendRequest', friend_id: 5, user_id: 2, name: 'Ann' },
      },
    },
    { type: 'appendContact', data: newContact({ id: 2, user_id: 2, displayName: 'Ann', is_group: 0, friend_id: 5 }) },
    { type: 'removeGroup', data: { group_id: 'group-3' } },
    { type: 'removeGroup', data: { group_id: 2 } },
    { type: 'disbandGroup', data: { group_id: 'group-3' } },
    {
      type: 'group',
      data: {
        ...base,
        type: 'image',
        toContactId: 'group-3',
        toUser: 'group-3',
        is_group: 1,
        role: 3,
        extends: { width: 640, height: 480, thumb: '/storage/t.webp', file_id: 9 },
        preview: '/storage/t.webp',
        contactInfo: group,
      },
    },
    {
      type: 'group',
      data: {
        ...base,
        type: 'event',
        toContactId: 'group-3',
        is_group: 1,
        extends: { event: 'mute', user_id: 2, name: 'Ann', user_ids: [4], names: ['Bo'], timer: 2 },
      },
    },
    { type: 'setChatTop', data: { id: 'group-3', is_top: 1, is_group: 1 } },
    { type: 'setIsNotice', data: { id: 2, is_notice: 0, is_group: 0 } },
    { type: 'addGroup', data: group },
    { type: 'addGroupUser', data: { group_id: 'group-3', user_ids: [4, 5], avatar: '/storage/g.webp' } },
    {
      type: 'undoMessage',
      data: {
        ...base,
        type: 'event',
        content: 'You withdrew a message',
        extends: {
          event: 'undo',
          user_id: 2,
          name: 'Ann',
          by: 2,
          by_name: 'Ann',
          original_type: 'text',
          original: 'hi',
        },
      },
    },
    { type: 'delMessage', data: { id: base.id, msg_id: 7, toContactId: -1 } },
    { type: 'reaction', data: { toContactId: 'group-3', msg_id: 7, emoji: '👍', user_id: 4, on: 1, count: 2 } },
    { type: 'poll', data: { toContactId: 'group-3', msg_id: 8, poll_id: 2, counts: [1, 0, 2], voters: 3, closed: 0 } },
    { type: 'readReceipt', data: { toContactId: 'group-3', after: 5, msg_id: 9 } },
    {
      type: 'editMessage',
      data: {
        toContactId: 2,
        msg_id: 7,
        id: base.id,
        content: 'hi again',
        edited: 1_700_000_000_000,
        sendTime: 1_699_999_000_000,
      },
    },
    { type: 'isRead', data: { toContactId: 2, msg_id: 7 } },
    { type: 'readAll', data: { toContactId: 'group-3', msg_id: 7, is_group: 1 } },
    { type: 'setManager', data: { group_id: 'group-3', user_id: 4, role: 2, avatar: '' } },
    { type: 'groupAvatar', data: { group_id: 'group-3', avatar: '/storage/g.webp' } },
    { type: 'removeUser', data: { group_id: 'group-3', user_id: 4 } },
    { type: 'setNoSpeak', data: { group_id: 'group-3', user_id: 4, no_speak_until: 0 } },
    { type: 'editGroupName', data: { id: 'group-3', displayName: 'Crew', editUserName: 'Ann' } },
    { type: 'setNotice', data: { group_id: 'group-3', notice: '<p>Hello</p>' } },
    {
      type: 'groupSetting',
      data: {
        group_id: 'group-3',
        setting: {
          invite: 1,
          history: 0,
          profile: 1,
          nospeak: 2,
          manage: 0,
          reaction: 1,
          receipt: 1,
          pin: 0,
          retention: 30,
        },
      },
    },
    { type: 'changeOwner', data: { group_id: 'group-3', user_id: 4 } },
    { type: 'clearMessage', data: { group_id: 'group-3' } },
    { type: 'adminNotice', data: { id: 1, title: 'Maintenance', notice: 'Tonight', create_time: 1_700_000_000_000 } },
    {
      type: 'webrtc',
      data: {
        ...base,
        type: 'webrtc',
        content: '视频通话',
        extends: { type: 1, status: 3, event: 'offer', code: 901, callTime: 0, isMobile: false, sdp: 'v=0\r\n' },
      },
    },
    { type: 'moments', data: { type: 'comment', post_id: 12, user_id: 4 } },
    { type: 'moments', data: { type: 'delete', post_id: 12, user_id: 3 } },
    { type: 'profileChanged', data: { user_id: 4, realname: 'Bob', avatar: '/storage/b.webp' } },
    { type: 'favorite', data: { action: 'del', ids: [3, 4] } },
    { type: 'held', data: { kind: 'message', id: 'c1', toContactId: 'group-3', decision: 'reject' } },
    {
      type: 'dataExport',
      data: {
        id: 5,
        state: 'running',
        progress: 40,
        size: 0,
        create_time: 1_700_000_000_000,
        expire_time: 0,
        url: '',
      },
    },
    { type: 'block', data: { user_id: 4, blocked: 1 } },
    {
      type: 'userStatus',
      data: { user_id: 4, status: { text: '开会中', emoji: '📅', until: null }, last_seen: 1_700_000_000_000 },
    },
    {
      type: 'chain',
      data: {
        toContactId: 'group-3',
        msg_id: 9,
        extends: {
          chain_id: 2,
          title: '周五聚餐',
          example: '姓名 + 人数',
          entries: [{ user_id: 4, name: 'Bob', text: '2 人' }],
          closed: 0,
          creator: 3,
          rev: 1,
        },
      },
    },
    { type: 'typing', data: { from: 4, chat: 'group-3', state: 1 } },
  ];

  it('describes a frame of every push event as the server sends it', () => {
    expect(new Set(examples.map((e) => e.type))).toEqual(new Set(Object.keys(PushEventSchemas)));
    for (const event of examples) expect(parseServerFrame(frame(event)), event.type).toEqual(frame(event));
  });

  it("lets keys it does not name through a message's facts, as older clients wrote them", () => {
    const card = {
      ...base,
      type: 'contact',
      extends: { id: 4, displayName: 'Bo', avatar: '', realname: 'Bo' },
    };
    const legacy = {
      ...base,
      type: 'text',
      extends: { atList: [4], quote: { msg_id: 6, content: 'a', user_id: 4, realname: 'Bo' } },
    };
    expect(parseServerFrame({ type: 'simple', time: 1, data: card })).toEqual({ type: 'simple', time: 1, data: card });
    expect(parseServerFrame({ type: 'group', time: 1, data: legacy })).toEqual({
      type: 'group',
      time: 1,
      data: legacy,
    });
  });

  it('refuses frames it does not describe', () => {
    const bad = [
      { type: 'moments', time: 1, data: {} },
      { type: 'simple', time: 1, data: { ...base, type: 'image', extends: { file_id: 9 } } },
      { type: 'simple', time: 1, data: { ...base, type: 'sticker', extends: {} } },
      { type: 'group', time: 1, data: { ...base, type: 'event', extends: { event: 'dance', user_id: 2 } } },
      { type: 'undoMessage', time: 1, data: text },
      { type: 'isOnline', time: 1, data: { id: '2', is_online: 1 } },
      { type: 'setChatTop', time: 1, data: { id: 'group-x', is_top: 1, is_group: 1 } },
      { type: 'groupSetting', time: 1, data: { group_id: 'group-3', setting: { invite: 1 } } },
    ];
    for (const f of bad) expect(parseServerFrame(f), JSON.stringify(f)).toBeNull();
    expect(parseServerFrame({ type: 'pong', multiport: true })).toEqual({ type: 'pong', multiport: true });
  });
});

describe('event lines', () => {
  it('tells each kind apart by `event`, with the facts the server records for it', () => {
    const actor = { user_id: 2, name: 'Ann' };
    const others = { user_ids: [4], names: ['Bo'] };
    const lines = [
      { event: 'undo', ...actor, by: 3, by_name: 'Cy', original_type: 'image' },
      { event: 'create', ...actor },
      { event: 'invite', ...actor, ...others },
      { event: 'remove', ...actor, ...others },
      { event: 'leave', ...actor },
      { event: 'join', ...actor },
      { event: 'setManager', ...actor, ...others },
      { event: 'unsetManager', ...actor, ...others },
      { event: 'changeOwner', ...actor, ...others },
      { event: 'mute', ...actor, ...others, timer: 4 },
      { event: 'unmute', ...actor, ...others, timer: 0 },
      { event: 'rename', ...actor, title: 'Crew' },
      { event: 'notice', ...actor },
      { event: 'friendRequest', friend_id: 5, user_id: 2, name: 'Ann' },
      { event: 'friendAccepted', friend_id: 5, user_id: 4, name: 'Dee' },
    ];
    for (const line of lines) expect(EventLineSchema.parse(line)).toEqual(line);
    expect(EventLineSchema.safeParse({ event: 'mute', ...actor, ...others }).success).toBe(false);
    expect(EventLineSchema.safeParse({ event: 'undo', ...actor }).success).toBe(false);
    expect(EventLineSchema.safeParse({ event: 'rename', ...actor, title: 'Crew', was: 'Team' }).data).toMatchObject({
      was: 'Team',
    });
  });

  it("checks a stored message's facts by its type", () => {
    expect(
      MessageFactsSchema.safeParse({ type: 'file', extends: { ext: 'pdf', name: 'a.pdf', size: 3, file_id: 1 } })
        .success,
    ).toBe(true);
    expect(MessageFactsSchema.safeParse({ type: 'file', extends: { name: 'a.pdf' } }).success).toBe(false);
    expect(MessageFactsSchema.safeParse({ type: 'emoji', extends: {} }).success).toBe(true);
    const m: Message = {
      ...{
        id: 'x',
        msg_id: 1,
        content: '',
        sendTime: 0,
        toContactId: 2,
        is_group: 0,
        status: 'succeed',
        is_read: 0,
        at: [],
        pid: 0,
        fromUser: { id: 2, user_id: 2, realname: '', displayName: '', avatar: '' },
      },
      type: 'voice',
      extends: { duration: 3, file_id: 1 },
    };
    expect(isMessageOf(m, 'voice') && m.extends.duration).toBe(3);
    expect(isMessageOf(m, 'image')).toBe(false);
  });
});

describe('console settings', () => {
  it('each setting is edited as its rule says, and named, with each choice, in every language', () => {
    expect(configControl('chatInfo.webrtc')).toEqual({ kind: 'switch' });
    expect(configControl('sysInfo.runMode')).toEqual({ kind: 'choice', values: [1, 2] });
    expect(configControl('chatInfo.redoTime')).toEqual({ kind: 'number', min: 0, max: 30 * 86_400, unit: 'seconds' });
    expect(configControl('sysInfo.name')).toEqual({ kind: 'text', max: 64 });
    expect(configControl('fileUpload.fileExt')).toEqual({ kind: 'json' });
    for (const locale of LOCALES) {
      const texts: Record<string, string> = serverMessages[locale];
      for (const key of Object.keys(CONFIG_KEYS) as ConfigKey[]) {
        expect(texts[`configLabel.${key}`], `${locale} configLabel.${key}`).toBeTruthy();
        expect(texts[`config.${key}`], `${locale} config.${key}`).toBeTruthy();
        const control = configControl(key);
        // A switch or a choice says what each value means; the description need not.
        if (control.kind === 'switch' || control.kind === 'choice')
          expect(texts[`config.${key}`], `${locale} config.${key}`).not.toMatch(/\b[0-3] [^\s,，)）]/);
        if (control.kind === 'choice')
          for (const value of control.values)
            expect(texts[`configOption.${key}.${value}`], `${locale} configOption.${key}.${value}`).toBeTruthy();
      }
    }
  });
});
