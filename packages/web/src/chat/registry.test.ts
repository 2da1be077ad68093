import { describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import { classifySendError } from './registry';

describe('classifySendError', () => {
  it('stops at a refusal for a rule and tries again after anything the connection or the server caused', () => {
    const server = (code: number) => new ApiError('server', 'why', code);
    // Validation, muted or not a friend, not a member, the group gone.
    for (const code of [400, 401, 403, 404]) expect(classifySendError(server(code))).toBe('refused');
    // Too many at once, the server failing or restarting.
    for (const code of [429, 502, 503]) expect(classifySendError(server(code))).toBe('retry');
    for (const kind of ['network', 'offline', 'server-status', 'session', 'unauthorized'] as const)
      expect(classifySendError(new ApiError(kind, ''))).toBe('retry');
    expect(classifySendError(new Error('signed out'))).toBe('retry');
  });
});
