import { describe, expect, it } from 'vitest';
import { deviceName } from './api/qr-login';
import { parseQrLink, qrLink } from './qr-link';

describe('QR login (扫码登录)', () => {
  it('names a device by its browser and system, as the phone’s confirm page shows it', () => {
    const ua = (s: string) => deviceName(s);
    expect(
      ua(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      ),
    ).toEqual({ browser: 'Chrome', os: 'Linux' });
    expect(
      ua(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toEqual({ browser: 'Edge', os: 'Windows' });
    expect(
      ua(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      ),
    ).toEqual({ browser: 'Safari', os: 'macOS' });
    expect(ua('Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toEqual({
      browser: 'Firefox',
      os: 'Linux',
    });
    expect(
      ua(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 uni-app Html5Plus/1.0',
      ),
    ).toEqual({ browser: 'Sparrow', os: 'iPhone' });
    expect(ua('curl/8.5.0')).toEqual({ browser: '', os: '' });
  });

  it('holds its code in a scan path of its own, which parses back to the kind `login`', () => {
    const url = qrLink('https://im.example.org/', 'login', 'abcdefghij_-0123456789');
    expect(url).toBe('https://im.example.org/scan/l/abcdefghij_-0123456789');
    expect(parseQrLink(url)).toEqual({
      base: 'https://im.example.org',
      kind: 'login',
      token: 'abcdefghij_-0123456789',
    });
  });
});
