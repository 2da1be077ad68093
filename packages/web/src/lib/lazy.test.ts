import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LAZY_TIMEOUT_MS } from '@sparrow/protocol';
import { LoadTimeoutError, loadWithTimeout } from './lazy';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('loadWithTimeout', () => {
  it('answers what the loader answers', async () => {
    await expect(loadWithTimeout(() => Promise.resolve('page'))).resolves.toBe('page');
  });

  it('passes the loader failure on', async () => {
    await expect(loadWithTimeout(() => Promise.reject(new Error('chunk 404')))).rejects.toThrow('chunk 404');
  });

  it('gives up after 60 s (docs/product.md §9)', async () => {
    const pending = loadWithTimeout(() => new Promise(() => {}));
    const outcome = pending.then(
      () => 'loaded',
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(LAZY_TIMEOUT_MS - 1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBeInstanceOf(LoadTimeoutError);
    expect(LAZY_TIMEOUT_MS).toBe(60_000);
  });

  it('does not time out a loader that finished in time', async () => {
    const pending = loadWithTimeout(
      () => new Promise((resolve) => setTimeout(() => resolve('late but fine'), LAZY_TIMEOUT_MS - 1)),
    );
    await vi.advanceTimersByTimeAsync(LAZY_TIMEOUT_MS + 1000);
    await expect(pending).resolves.toBe('late but fine');
  });
});
