import { describe, expect, it } from 'vitest';
import { loggedUrl } from './routes';

describe('a scan path in the log', () => {
  it('leaves out the token of a person’s or a group’s code and a login code, and nothing else', () => {
    expect(loggedUrl('/scan/g/g12v3.1796623000000.abcDEF_-0123456789abcd')).toBe('/scan/g/…');
    expect(loggedUrl('/im/scan/u/u7.99.sig?x=1')).toBe('/im/scan/u/…?x=1');
    expect(loggedUrl('/scan/l/abcdefghij_-0123456789')).toBe('/scan/l/…');
    expect(loggedUrl('/enterprise/im/sendMessage')).toBe('/enterprise/im/sendMessage');
    expect(loggedUrl('/scan/x/abc')).toBe('/scan/x/abc');
  });
});
