import * as z from 'zod';
import {
  ACCOUNT_MAX,
  ACCOUNT_MIN,
  CODE_LENGTH,
  ID_MAX,
  MOTTO_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  REALNAME_MAX,
  REALNAME_MIN,
} from '../limits';
import { withinGraphemes } from '../text';

/**
 * Text fields that a person fills in and that may not be empty (a name): sent blank, they say the
 * person cleared it, which is refused, never an old client's unused field (see `blanksAbsent`).
 */
const refusesBlank = new WeakSet<z.ZodType>();

/** The most characters (graphemes) each `personText` takes, for what reads the schema (tests, column widths). */
const graphemeMaxOf = new WeakMap<z.ZodType, number>();

/** The most characters (graphemes) a `personText` schema takes; undefined for any other schema. */
export function graphemeMax(schema: z.ZodType): number | undefined {
  return graphemeMaxOf.get(schema);
}

/**
 * Field schemas shared by endpoint schemas. Strings are trimmed; numbers are coerced so that
 * form-encoded bodies (`user_id=3`) validate like JSON ones.
 */
export const account = z.string().trim().min(ACCOUNT_MIN).max(ACCOUNT_MAX);
export const password = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);
export const realname = personText(REALNAME_MAX, REALNAME_MIN);
export const email = z.string().trim().max(128).pipe(z.email());
export const phone = z
  .string()
  .trim()
  .regex(/^\+?[0-9]{6,15}$/);
export const code = z
  .string()
  .trim()
  .regex(new RegExp(`^[0-9]{${CODE_LENGTH}}$`));
export const motto = personText(MOTTO_MAX);

/** Digits of a whole number, nothing else: how an id past ID_MAX may be written. */
const DIGITS = /^\+?0*[1-9][0-9]*$/;

/**
 * Reads an id written as a number or in decimal digits: a whole number from `min` (1, or 0 where 0
 * means none) up to ID_MAX; one beyond ID_MAX (2^53, 1e23, a hundred digits) reads as ID_MAX,
 * which no row has. Anything else is undefined.
 */
export function readId(v: unknown, min: 0 | 1 = 1): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && DIGITS.test(v.trim()) ? Number(v) : NaN;
  if (n > ID_MAX) return ID_MAX;
  return Number.isInteger(n) && n >= min ? n : undefined;
}

/** An id from `min` on, as `readId` reads it; typed as a number the JSON way, coerced from a form's text. */
function idFrom(min: 0 | 1) {
  const beyond = z.union([z.coerce.number().gt(ID_MAX), z.string().trim().regex(DIGITS)]).transform(() => ID_MAX);
  return z.union([z.coerce.number().int().min(min).max(ID_MAX), beyond]);
}

/**
 * The id of a row (a user, message, file, post, notice…). Past ID_MAX it reads as ID_MAX, which
 * names no row, so the request is answered as one naming an unknown id is ("not found"), never
 * with a database's error.
 */
export const rowId = idFrom(1);
/** An id where 0 means none or everyone (a quote, a mention, a department), or a paging cursor: past ID_MAX it lies past every row. */
export const rowIdOrZero = idFrom(0);
export const userId = rowId;
export const clientId = z.string().trim().min(1).max(64);
export const optionalText = (max: number) => z.string().trim().max(max).optional();
/** A token from a scanned QR code (docs/protocol.md §6); its signature and expiry are checked by the server. */
export const qrToken = z.string().trim().min(10).max(200);

/** A 0/1 flag that also accepts booleans and "0"/"1". */
export const flag = z.preprocess(
  (v) => (v === true || v === 'true' ? 1 : v === false || v === 'false' ? 0 : v),
  z.coerce.number().int().min(0).max(1),
);

/** True when the string looks like an email address. */
export function isEmail(s: string): boolean {
  return email.safeParse(s).success;
}
/** True when the string looks like a phone number. */
export function isPhone(s: string): boolean {
  return phone.safeParse(s).success;
}

/** Adds a "longer than `max` characters" issue when `text` is; `path` names the field from an object's check. */
export function checkGraphemes(text: string, max: number, ctx: z.RefinementCtx, path?: string[]): void {
  if (!withinGraphemes(text, max))
    ctx.addIssue({
      code: 'too_big',
      origin: 'string',
      maximum: max,
      inclusive: true,
      input: text,
      ...(path && { path }),
    });
}

/**
 * Text a person writes (names, remarks, notes, keywords): trimmed, at most `max` characters
 * counted as graphemes, at least `min`. Time linear in the input, whatever its length.
 */
export function personText(max: number, min = 0) {
  const base = z.string().trim();
  const schema = (min > 0 ? base.min(min) : base).superRefine((s, ctx) => checkGraphemes(s, max, ctx));
  if (min > 0) refusesBlank.add(schema);
  graphemeMaxOf.set(schema, max);
  return schema;
}

/** How an old client leaves a field unused: present, but empty or zero. */
const isBlank = (v: unknown) => v === '' || v === '0' || v === 0 || v === null;

/**
 * Reads old clients' blanks as absent (docs/protocol.md §1 "Old clients": `code=` on a password login,
 * `file_id=0` on a text message). A field sent blank that its own schema refuses is dropped before
 * the body is validated, when the field may be left out; one its schema takes keeps its meaning
 * (`is_group=0`, `status=0`), and a required one or a name (`personText` with a minimum: a cleared
 * `realname`) is refused as sent. Applied to every body of the route table; only blank fields are
 * looked at, so a body costs no second pass. Typed as the schema it wraps: it takes what that
 * schema takes (and blanks), and gives what it gives.
 */
export function blanksAbsent<T extends z.ZodType>(schema: T): T {
  if (!(schema instanceof z.ZodObject)) return schema;
  const shape = schema.shape as Record<string, z.ZodType>;
  return z.preprocess((raw) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
    let kept: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(raw)) {
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (
        !isBlank(value) ||
        !field ||
        refusesBlank.has(field instanceof z.ZodOptional ? (field.unwrap() as z.ZodType) : field) ||
        field.safeParse(value).success ||
        !field.safeParse(undefined).success
      )
        continue;
      kept ??= { ...raw };
      delete kept[key];
    }
    return kept ?? raw;
  }, schema) as unknown as T;
}
