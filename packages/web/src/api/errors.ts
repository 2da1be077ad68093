/**
 * How a call failed, one kind per row of the error catalogue (docs/product.md §8):
 * `server` envelope code ≠ 0 · `session` code -1 · `unauthorized` HTTP 401 · `server-status`
 * HTTP 500 · `network` anything else (the time-out included) · `offline` no network before the
 * call · `setup` the request could not be built · `aborted` the caller cancelled it (nothing shown).
 */
export type ApiErrorKind =
  'server' | 'session' | 'unauthorized' | 'server-status' | 'network' | 'offline' | 'setup' | 'aborted';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly code?: number,
    readonly data?: unknown,
    readonly status?: number,
  ) {
    super(message);
  }

  /** Field names the server rejected (code 400 with `data.fields`). */
  get fields(): string[] {
    const d = this.data as { fields?: unknown } | undefined;
    return Array.isArray(d?.fields) ? d.fields.filter((f): f is string => typeof f === 'string') : [];
  }
}

/**
 * The server could not be reached (no network, no answer, a server down behind its proxy): what is
 * kept on the device stands in for its answer.
 */
export function isUnreachable(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.kind === 'network' || error.kind === 'offline' || error.kind === 'server-status')
  );
}
