import { describe, expect, it } from 'vitest';
import { Sealer } from './sealed';

describe('Sealer', () => {
  const sealer = new Sealer(() => 'instance-secret-of-this-test');

  it('opens what it sealed, and never stores the plain text', () => {
    const sealed = sealer.seal('JBSWY3DPEHPK3PXP', 'totp:7');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(sealer.open(sealed, 'totp:7')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('seals the same text differently each time', () => {
    expect(sealer.seal('x', 'c')).not.toBe(sealer.seal('x', 'c'));
  });

  it('refuses a value moved to another context, changed, or sealed under another secret', () => {
    const sealed = sealer.seal('secret', 'totp:7');
    expect(() => sealer.open(sealed, 'totp:8')).toThrow();
    const flipped = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'B' : 'A') + sealed.slice(-1);
    expect(() => sealer.open(flipped, 'totp:7')).toThrow();
    expect(() => new Sealer(() => 'another-secret').open(sealed, 'totp:7')).toThrow();
    expect(() => sealer.open('plain', 'totp:7')).toThrow();
  });
});
