import { DEFAULT_APP_SETTING } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import { createStorage } from './storage';

function memory() {
  const map = new Map<string, string>();
  return {
    map,
    backend: {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    },
  };
}

describe('stored items', () => {
  it('keeps strings as they are and objects as JSON, under the docs/product.md §3 names', () => {
    const { map, backend } = memory();
    const s = createStorage(() => backend);
    s.set('authToken', 'bearer abc');
    s.set('cid', 'install');
    s.set('language', 'fr');
    s.set('appSetting', { voiceStatus: false, vibrateStatus: true, circleAvatar: true });
    expect(map.get('authToken')).toBe('bearer abc');
    expect(map.get('language')).toBe('fr');
    expect(JSON.parse(map.get('appSetting')!)).toEqual({
      voiceStatus: false,
      vibrateStatus: true,
      circleAvatar: true,
    });
    expect(s.get('authToken')).toBe('bearer abc');
    s.remove('authToken');
    expect(s.get('authToken')).toBeNull();
  });

  it('reads broken or foreign values as absent', () => {
    const { map, backend } = memory();
    const s = createStorage(() => backend);
    map.set('language', 'klingon');
    map.set('userInfo', '{not json');
    map.set('appSetting', '{"voiceStatus":"yes"}');
    expect(s.get('language')).toBeNull();
    expect(s.get('userInfo')).toBeNull();
    expect(s.get('appSetting')).toBeNull();
  });

  it('fills missing app settings with the product’s defaults', () => {
    const { map, backend } = memory();
    map.set('appSetting', '{"circleAvatar":true}');
    expect(createStorage(() => backend).get('appSetting')).toEqual({
      ...DEFAULT_APP_SETTING,
      circleAvatar: true,
    });
  });

  it('keeps working when storage throws or is missing', () => {
    const throwing = createStorage(() => ({
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    }));
    expect(() => throwing.set('cid', 'x')).not.toThrow();
    expect(throwing.get('cid')).toBeNull();
    expect(createStorage(() => undefined).get('cid')).toBeNull();
  });
});
