import { LAZY_TIMEOUT_MS } from '@sparrow/protocol';

/** A page module failed to arrive within LAZY_TIMEOUT_MS. */
export class LoadTimeoutError extends Error {
  override readonly name = 'LoadTimeoutError';
}

interface TimerFns {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: TimerFns = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Runs a loader and rejects with LoadTimeoutError when it takes longer than timeoutMs. */
export function loadWithTimeout<T>(
  loader: () => Promise<T>,
  timeoutMs: number = LAZY_TIMEOUT_MS,
  timers: TimerFns = realTimers,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = timers.setTimeout(() => reject(new LoadTimeoutError(`not loaded within ${timeoutMs} ms`)), timeoutMs);
    loader().then(
      (value) => {
        timers.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        timers.clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
