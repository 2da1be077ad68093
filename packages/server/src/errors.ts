import { ErrorCodes, type ErrorName, type MessageKey } from '@sparrow/protocol';

/**
 * A named, expected failure. One place (http/envelope.ts) turns it into the envelope
 * `{code, msg, data}` with the message in the caller's language.
 */
export class AppError extends Error {
  readonly code: number;
  /** Parameters that are themselves messages, translated with the rest. */
  readonly paramKeys: Record<string, MessageKey> = {};

  constructor(
    override readonly name: ErrorName,
    readonly params: Record<string, string | number> = {},
    readonly data: unknown = null,
  ) {
    super(name);
    this.code = ErrorCodes[name];
  }

  /** Names the account form expected ("phone number", "email address") in the caller's words. */
  withForm(key: MessageKey): this {
    this.paramKeys.form = key;
    return this;
  }
}

/**
 * Code -1: no session, or one that has ended. Its `data` is `[]`, as the original server answered:
 * a client that lists `data` on a cold start without a session (Raingad's mobile client sorts it)
 * finds an empty list.
 */
export const noSession = (): AppError => new AppError('NoSession', {}, []);
