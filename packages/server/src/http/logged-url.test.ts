import { describe, expect, it } from 'vitest';
import { loggedUrl } from './logged-url';

describe('loggedUrl', () => {
  it('leaves a scan path’s token and a robot’s key out of the log', () => {
    expect(loggedUrl('/scan/g/g12v3.1796623000000.abcDEF_-0123456789abcd')).toBe('/scan/g/…');
    expect(loggedUrl('/im/scan/u/u7.99.sig?x=1')).toBe('/im/scan/u/…?x=1');
    expect(loggedUrl('/scan/l/abcdefghij_-0123456789')).toBe('/scan/l/…');
    expect(loggedUrl('/cgi-bin/webhook/send?key=srk_abcDEF-123_x')).toBe('/cgi-bin/webhook/send?key=…');
    expect(loggedUrl('/cgi-bin/webhook/send?debug=1&KEY=srk_a#x')).toBe('/cgi-bin/webhook/send?debug=1&KEY=…#x');
    expect(loggedUrl('/enterprise/im/sendMessage')).toBe('/enterprise/im/sendMessage');
    expect(loggedUrl('/scan/x/abc?monkey=1')).toBe('/scan/x/abc?monkey=1');
  });
});
