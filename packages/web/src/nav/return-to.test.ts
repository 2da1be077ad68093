import { describe, expect, it } from 'vitest';
import { loginPath, returnPath } from './return-to';

describe('coming back after signing in', () => {
  it('comes back to a page that needs a session, query and all', () => {
    expect(returnPath('/pages/index/myqrcode?token=u1.2.abc')).toBe('/pages/index/myqrcode?token=u1.2.abc');
    expect(returnPath('/pages/index/qqrcode?token=g3.4.x%2By')).toBe('/pages/index/qqrcode?token=g3.4.x%2By');
    const login = loginPath('/pages/index/qqrcode?token=g3.4.x%2By');
    expect(new URLSearchParams(login.split('?')[1]).get('redirect')).toBe('/pages/index/qqrcode?token=g3.4.x%2By');
    expect(login.startsWith('/pages/login/login?')).toBe(true);
  });

  it('goes nowhere else: home, public pages, unknown paths and other sites', () => {
    for (const bad of [
      '/pages/index/index',
      '/pages/login/login',
      '/pages/mine/about',
      '/pages/nowhere',
      '//evil.example/pages/index/scan',
      'https://evil.example/#/pages/index/scan',
      'pages/index/scan',
      '',
      null,
      undefined,
    ]) {
      expect(returnPath(bad), String(bad)).toBeNull();
    }
    expect(loginPath('/pages/index/index')).toBe('/pages/login/login');
  });
});
