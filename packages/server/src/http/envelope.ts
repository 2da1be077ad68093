import {
  Codes,
  negotiateLocale,
  statesLanguage,
  serverMessages,
  translate,
  type Contact,
  type Envelope,
  type Locale,
  type MessageKey,
} from '@sparrow/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod';
import { AppError } from '../errors';

/** The caller's language, from `Accept-Language` (zh-Hans when absent, else English fallback). */
export function localeOf(req: FastifyRequest): Locale {
  return negotiateLocale(languageHeader(req));
}

/** Whether the caller named its language (not absent, `*` or junk): only then is it remembered. */
export function languageStated(req: FastifyRequest): boolean {
  return statesLanguage(languageHeader(req));
}

function languageHeader(req: FastifyRequest): string | undefined {
  const header = req.headers['accept-language'];
  return Array.isArray(header) ? header[0] : header;
}

/** What a handler may return besides bare data: a message worth a toast, a count, a page. */
export class Ok<T> {
  constructor(
    readonly data: T,
    readonly extra: {
      msg?: MessageKey;
      params?: Record<string, string | number>;
      count?: number;
      page?: number;
      system?: Contact;
    } = {},
  ) {}
}
export const ok = <T>(data: T, extra?: Ok<T>['extra']) => new Ok(data, extra);

export function successEnvelope(req: FastifyRequest, result: unknown): Envelope {
  if (result instanceof Ok) {
    const env: Envelope = {
      code: Codes.Ok,
      msg: result.extra.msg ? translate(localeOf(req), result.extra.msg, result.extra.params) : '',
      data: result.data ?? null,
    };
    if (result.extra.count !== undefined) env.count = result.extra.count;
    if (result.extra.page !== undefined) env.page = result.extra.page;
    if (result.extra.system !== undefined) env.system = result.extra.system;
    return env;
  }
  return { code: Codes.Ok, msg: '', data: result ?? null };
}

/** HTTP status for an envelope code: 200, except 429 and unexpected errors (500). */
export function httpStatus(code: number): number {
  if (code === Codes.TooMany) return 429;
  if (code === Codes.ServerError) return 500;
  if (code === Codes.Unavailable) return 503;
  return 200;
}

export function sendError(req: FastifyRequest, reply: FastifyReply, err: AppError): FastifyReply {
  const locale = localeOf(req);
  const envelope: Envelope = {
    code: err.code,
    msg:
      err instanceof ValidationFailure
        ? err.text
        : (refusedFieldText(err, locale) ??
          translate(locale, `errors.${err.name}` as MessageKey, {
            ...err.params,
            ...Object.fromEntries(Object.entries(err.paramKeys).map(([k, key]) => [k, translate(locale, key)])),
          })),
    data: err.data,
  };
  if (err.code === Codes.TooMany && err.params.seconds !== undefined) {
    void reply.header('retry-after', String(err.params.seconds));
  }
  // A body over its route's limit is answered 413 as HTTP says, beside its envelope code 400.
  return reply.status(err.name === 'BodyTooLarge' ? 413 : httpStatus(err.code)).send(envelope);
}

/**
 * A validation failure as an AppError: `msg` names the first bad field in the caller's words,
 * `data.fields` lists every bad field. `body` is what was sent: a field absent from it is "required",
 * one of the wrong type "not valid" (zod's issues do not carry the input).
 */
export function validationError(error: z.ZodError, locale: Locale, body?: unknown): AppError {
  const fields = [...new Set(error.issues.map((i) => String(i.path[0] ?? 'body')))];
  const first = error.issues[0];
  const name = String(first?.path[0] ?? 'body');
  const label = fieldLabel(locale, name) ?? translate(locale, 'field.body');
  let text: string;
  if (!first) text = translate(locale, 'errors.Validation');
  else if (first.message === 'mismatch') text = translate(locale, 'validation.mismatch');
  else if ((first.code === 'invalid_type' || first.path[0] !== undefined) && isAbsent(body, first.path[0])) {
    // Absent is "required" whatever the schema's kind of complaint (a union says invalid_union).
    text = translate(locale, 'validation.required', { field: label });
  } else if (first.code === 'too_small' || first.code === 'too_big') {
    const shape = error.issues
      .filter((i) => i.path[0] === first.path[0])
      .map((i) => i as { minimum?: number | bigint; maximum?: number | bigint });
    const min = shape.find((i) => i.minimum !== undefined)?.minimum;
    const max = shape.find((i) => i.maximum !== undefined)?.maximum;
    const origin = (first as { origin?: string }).origin;
    if (origin === 'string' && first.code === 'too_small' && Number(min) === 1) {
      text = translate(locale, 'validation.required', { field: label });
    } else if (origin === 'string') {
      text =
        first.code === 'too_small'
          ? translate(locale, 'validation.tooShort', { field: label, min: String(min) })
          : translate(locale, 'validation.tooLong', { field: label, max: String(max) });
    } else text = translate(locale, 'validation.invalid', { field: label });
  } else if (first.message === 'required') {
    text = translate(locale, 'validation.required', { field: label });
  } else text = translate(locale, 'validation.invalid', { field: label });
  return new ValidationFailure(text, fields);
}

/** A field's name in the caller's words, when the catalogue has one. */
function fieldLabel(locale: Locale, name: string): string | undefined {
  const key = `field.${name}`;
  return key in serverMessages[locale] ? translate(locale, key as MessageKey) : undefined;
}

/**
 * What a service's own refusal of a field says (`AppError('Validation', {}, {fields})`, after the
 * schema passed): the field by name when it has one, else the plain "invalid request".
 */
function refusedFieldText(err: AppError, locale: Locale): string | undefined {
  if (err.name !== 'Validation') return undefined;
  const fields = (err.data as { fields?: unknown } | null)?.fields;
  const first = Array.isArray(fields) && typeof fields[0] === 'string' ? fields[0] : undefined;
  // A body refused whole keeps the plain words.
  const label = first === undefined || first === 'body' ? undefined : fieldLabel(locale, first);
  return label === undefined ? undefined : translate(locale, 'validation.invalid', { field: label });
}

function isAbsent(body: unknown, key: PropertyKey | undefined): boolean {
  if (key === undefined || typeof body !== 'object' || body === null) return true;
  const value = (body as Record<PropertyKey, unknown>)[key];
  return value === undefined || value === null;
}

/** A validation failure whose message is already in the caller's language. */
export class ValidationFailure extends AppError {
  constructor(
    readonly text: string,
    fields: string[],
  ) {
    super('Validation', {}, { fields });
  }
}
