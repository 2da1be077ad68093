import { qrLink } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import { FROM_SCANNER, fromScanner, ownBases, scanTarget } from './scan-target';

const here = ownBases(
  { origin: 'http://192.168.1.5:8000', pathname: '/' },
  'https://im.example.org/#/pages/index/myqrcode?token=u1.2.x',
);

describe('what a scanned code opens', () => {
  it('opens a computer’s login code on the page that confirms its sign-in (扫码登录)', () => {
    expect(scanTarget(qrLink('http://192.168.1.5:8000', 'login', 'abcdefghij_-0123456789'), here)).toEqual({
      kind: 'page',
      path: '/pages/index/qrLogin?token=abcdefghij_-0123456789',
      qr: 'login',
      token: 'abcdefghij_-0123456789',
    });
  });

  it('opens a code of this server in the app, whichever of its addresses the code names', () => {
    expect(here).toEqual(['http://192.168.1.5:8000', 'https://im.example.org']);
    expect(scanTarget(qrLink('http://192.168.1.5:8000', 'user', 'u7.99.sig'), here)).toEqual({
      kind: 'page',
      path: '/pages/index/myqrcode?token=u7.99.sig',
      qr: 'user',
      token: 'u7.99.sig',
    });
    expect(scanTarget(qrLink('https://IM.example.org/', 'group', 'g3.99.s+g'), here)).toMatchObject({
      kind: 'page',
      path: '/pages/index/qqrcode?token=g3.99.s%2Bg',
      token: 'g3.99.s+g',
    });
    // Served under a path, with index.html in the address.
    const sub = ownBases({ origin: 'https://x.org', pathname: '/im/index.html' }, undefined);
    expect(scanTarget('https://x.org/im/#/pages/index/myqrcode?token=u1.2.abc', sub)).toMatchObject({ kind: 'page' });
    expect(scanTarget('https://x.org/im/scan/g/g3.4.abc', sub)).toEqual({
      kind: 'page',
      path: '/pages/index/qqrcode?token=g3.4.abc',
      qr: 'group',
      token: 'g3.4.abc',
    });
  });

  it('reads the scan path codes hold now and the page address they held before alike', () => {
    expect(qrLink('http://192.168.1.5:8000/', 'user', 'u7.99.sig')).toBe('http://192.168.1.5:8000/scan/u/u7.99.sig');
    const printed = 'http://192.168.1.5:8000/#/pages/index/myqrcode?token=u7.99.sig';
    expect(scanTarget(printed, here)).toEqual(scanTarget(qrLink('http://192.168.1.5:8000', 'user', 'u7.99.sig'), here));
    // Another path under /scan, or a kind it does not know, is no code of ours.
    expect(scanTarget('http://192.168.1.5:8000/scan/x/u7.99.sig', here).kind).toBe('web');
  });

  it('opens another server’s code and any other web address in the in-app browser', () => {
    const foreign = qrLink('https://other.example', 'user', 'u1.2.sig');
    expect(scanTarget(foreign, here)).toEqual({ kind: 'web', url: foreign });
    expect(scanTarget(' https://example.com/a?b=1 ', here)).toEqual({ kind: 'web', url: 'https://example.com/a?b=1' });
    // A landing page without a token is just a page of ours.
    expect(scanTarget('http://192.168.1.5:8000/#/pages/index/myqrcode', here).kind).toBe('web');
  });

  it('shows anything else as text', () => {
    for (const text of ['WIFI:S:home;T:WPA;P:secret;;', 'javascript:alert(1)', '你好 123', 'ftp://x.y/z']) {
      expect(scanTarget(text, here)).toEqual({ kind: 'text', text });
    }
  });
});

describe('the hand-off from 扫一扫', () => {
  it('is read only from the state the scanner passes, not from an address or a reload', () => {
    expect(fromScanner(FROM_SCANNER)).toBe(true);
    for (const state of [null, undefined, {}, { fromScanner: 'true' }, 'fromScanner']) {
      expect(fromScanner(state)).toBe(false);
    }
  });
});
