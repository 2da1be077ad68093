import { afterEach, expect } from 'vitest';
import { takeCspViolations } from './harness';

// Every page runs under the server's Content-Security-Policy: a test during which any page broke it fails.
afterEach(() => {
  expect(takeCspViolations(), 'Content-Security-Policy violations').toEqual([]);
});
