/**
 * Bad input derived from the protocol's schemas (issue 16). For every route of the route table the
 * suite walks the route's zod schema, builds a valid body, spoils it one field at a time (missing,
 * wrong type, out of range, too long, oversized, deeply nested, prototype keys, odd Unicode…) and
 * sends each spoilt body as JSON and as a form, signed in, signed out and with a garbage token;
 * multipart routes also get malformed multipart. Every answer must be the envelope of docs/protocol.md §1,
 * never a 5xx, and carry no stack trace, SQL or hash; a body the schema refuses must answer 400
 * (-1 first when a session is needed and missing). A route added to the table is covered without a
 * case written for it. On PostgreSQL (DATABASE_URL) the bodies that pass validation are sent again,
 * for what that database makes of them: ids past 2^53 (which read as no row's id), and the longest
 * text each field takes, in code points and bytes as well as in characters.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import qs from 'qs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type * as z from 'zod';
import {
  BODY_DEPTH_MAX,
  Codes,
  graphemeMax,
  jsonDepth,
  ROBOT_MESSAGES_PER_MINUTE,
  RobotErrcodes,
  routes,
  type RouteName,
} from '@sparrow/protocol';
import { FORM_PARSE, nestedDeeper } from '../src/http/body';
import { describeEachDb, LANGS, signUp, startServer, type TestServer } from './harness';

/** Fixed, so that a failure found once is found again. */
const SEED = 16;
/** The least number of requests one run of this file must send. */
const MIN_REQUESTS = 5_000;
/** How the server parses form bodies (http/body.ts): the oracle must see what the server sees. */
/** Content types the server parses; any other is refused before the handler. */
const PARSED_TYPES = /^(application\/json|application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/;

const ENVELOPE_KEYS = new Set(['code', 'msg', 'data', 'count', 'page', 'system']);
const DOCUMENTED_CODES = new Set<number>(Object.values(Codes));

/** What must never be in an answer: a stack frame, SQL or a database's words, a password hash. */
const LEAKS: Array<[string, RegExp]> = [
  ['stack trace', /\bat .*?[\\/][^\s:()]+:\d+/],
  ['stack trace', /\.[cm]?[jt]s:\d+/],
  ['stack trace', /node:internal/],
  ['SQL', /\bSELECT /],
  ['SQL', /\bINSERT /],
  ['SQL', /\bUPDATE \S+ SET\b/i],
  ['database error', /sqlite/i],
  ['database error', /syntax error/i],
  ['database error', /relation "/],
  ['database error', /violates .* constraint/i],
  ['hash', /\$argon2/],
  ['hash', /\$2[aby]\$/],
  ['hash', /scrypt\$/],
  ['hash', /password_hash|token_hash/],
];
/** A SHA-256 or similar in hex; expected only inside a content-addressed storage URL. */
const HEX64 = /(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])/g;
const STORAGE_HEX = /\/storage\/[0-9a-f]{2}\/[0-9a-f]{64}\./g;

const MISSING = Symbol('missing');

type Value = unknown;

/** Requests sent by the whole file, over every database. */
let sentInRun = 0;

/** True when U+0000 is anywhere in a value, keys included (the server refuses it: PostgreSQL cannot store it). */
function containsNul(v: Value, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (typeof v !== 'object' || v === null || depth > 32) return false;
  return Object.entries(v).some(([k, x]) => k.includes('\u0000') || containsNul(x, depth + 1));
}

// --- Walking a zod 4 schema ----------------------------------------------------------------------
// zod-fast-check does not support zod 4, so the schema is walked here through `_zod.def`.

type Schema = z.ZodType;
const defOf = (s: Schema): any => (s as any)._zod.def;

/** What a field's schema accepts, merged over unions, wrappers and pipes. */
interface Shape {
  kinds: Set<'string' | 'number' | 'boolean' | 'array' | 'object' | 'record' | 'choice' | 'other'>;
  strMin?: number;
  strMax?: number;
  /** The most characters (graphemes) a person's text takes. */
  graphemeMax?: number;
  patterns: RegExp[];
  formats: string[];
  numMin?: number;
  numMax?: number;
  int: boolean;
  arrMin?: number;
  arrMax?: number;
  element?: Schema;
  fields?: Record<string, Schema>;
  choices: unknown[];
  optional: boolean;
}

function shapeOf(schema: Schema, into?: Shape): Shape {
  const s: Shape = into ?? { kinds: new Set(), patterns: [], formats: [], int: false, choices: [], optional: false };
  const def = defOf(schema);
  const checks: any[] = (def.checks ?? []).map((c: any) => c._zod.def);
  s.graphemeMax ??= graphemeMax(schema);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
      s.optional = true;
      return shapeOf(def.innerType, s);
    case 'nullable':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return shapeOf(def.innerType, s);
    case 'pipe':
      shapeOf(def.in, s);
      return shapeOf(def.out, s);
    case 'transform':
      return s;
    case 'union':
      for (const o of def.options) shapeOf(o, s);
      return s;
    case 'string':
      s.kinds.add('string');
      if (def.format) s.formats.push(def.format);
      for (const c of checks) {
        if (c.check === 'min_length') s.strMin = Math.max(s.strMin ?? 0, c.minimum);
        if (c.check === 'max_length') s.strMax = Math.min(s.strMax ?? Infinity, c.maximum);
        if (c.check === 'length_equals') s.strMin = s.strMax = c.length;
        if (c.check === 'string_format' && c.pattern) s.patterns.push(c.pattern);
        else if (c.check === 'string_format') s.formats.push(c.format);
      }
      return s;
    case 'number':
    case 'int':
      s.kinds.add('number');
      for (const c of checks) {
        if (c.check === 'number_format' && /int/.test(c.format)) s.int = true;
        // Over a union's options, the widest: an id's first option is its range, another reads past it.
        if (c.check === 'greater_than') s.numMin = Math.min(s.numMin ?? Infinity, c.inclusive ? c.value : c.value + 1);
        if (c.check === 'less_than') s.numMax = Math.max(s.numMax ?? -Infinity, c.inclusive ? c.value : c.value - 1);
      }
      return s;
    case 'boolean':
      s.kinds.add('boolean');
      return s;
    case 'array':
      s.kinds.add('array');
      s.element = def.element;
      for (const c of checks) {
        if (c.check === 'min_length') s.arrMin = c.minimum;
        if (c.check === 'max_length') s.arrMax = c.maximum;
      }
      return s;
    case 'object':
      s.kinds.add('object');
      s.fields = def.shape;
      return s;
    case 'record':
      s.kinds.add('record');
      return s;
    case 'enum':
      s.kinds.add('choice');
      s.choices.push(...Object.values(def.entries));
      return s;
    case 'literal':
      s.kinds.add('choice');
      s.choices.push(...def.values);
      return s;
    default:
      s.kinds.add('other');
      return s;
  }
}

/** A seed for fast-check, distinct per field so that fields get different random values. */
function seedOf(text: string): number {
  let h = SEED;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

const sample = <T>(arb: fc.Arbitrary<T>, n: number, where: string): T[] =>
  fc.sample(arb, { numRuns: n, seed: seedOf(where) });

/** Values of the world the suite seeds (ids, accounts), tried first so that valid bodies reach the services. */
type Hints = Record<string, Value[]>;

/** A value the schema accepts: a hint, else one built from the schema's shape; undefined if none is found. */
function validValue(schema: Schema, name: string, hints: Hints): Value {
  const shape = shapeOf(schema);
  const candidates: Value[] = [...(hints[name] ?? [])];
  if (shape.kinds.has('object') && shape.fields) candidates.push(validObject(shape.fields, hints));
  if (shape.kinds.has('choice')) candidates.push(...shape.choices);
  if (shape.kinds.has('number')) candidates.push(Math.max(shape.numMin ?? 1, 1), shape.numMin ?? 0);
  if (shape.kinds.has('string')) {
    for (const p of shape.patterns) candidates.push(...sample(fc.stringMatching(p), 3, `${name}${p}`));
    if (shape.formats.includes('email')) candidates.push('bad.input@example.com');
    const n = Math.min(Math.max(shape.strMin ?? 1, 8), shape.strMax ?? 8);
    candidates.push('abcdefgh12345678'.slice(0, n).padEnd(n, 'x'), randomUUID());
  }
  if (shape.kinds.has('array') && shape.element) {
    const el = validValue(shape.element, name, hints);
    candidates.push(Array.from({ length: Math.max(shape.arrMin ?? 1, 1) }, () => el));
  }
  if (shape.kinds.has('record')) candidates.push({});
  if (shape.kinds.has('boolean')) candidates.push(true);
  if (shape.kinds.has('other')) candidates.push('x');
  return candidates.find((c) => schema.safeParse(c).success);
}

function validObject(fields: Record<string, Schema>, hints: Hints, all = true): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [k, s] of Object.entries(fields)) {
    if (!all && shapeOf(s).optional) continue;
    const v = validValue(s, k, hints);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** A valid body for a route: its required fields only, else all of them (refinements may need both). */
function validBody(schema: Schema, hints: Hints): Record<string, Value> {
  const fields = shapeOf(schema).fields ?? {};
  const required = validObject(fields, hints, false);
  if (schema.safeParse(required).success) return required;
  return validObject(fields, hints, true);
}

// --- Spoilt values --------------------------------------------------------------------------------

/** `{a:{a:…}}`, `depth` levels. */
function nested(depth: number, leaf: Value = 1): Value {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/** An object with an own property of that name (an object literal's `__proto__` would set the prototype). */
function withOwn(obj: Record<string, Value>, key: string, value: Value): Record<string, Value> {
  const out = { ...obj };
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

const POLLUTE = { polluted: 'yes' };
/**
 * Any code point or a lone surrogate. fast-check's own 'binary' unit is the same idea but builds a
 * table of every code point on first use (2 s).
 */
const ANY_UNIT = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
);
const KB100 = 'x'.repeat(100 * 1024);
const FAMILY = '👩‍👩‍👧‍👦';
/** One character of 16 code points (a letter and 15 marks): the most a character may spend (UNITS_PER_GRAPHEME_MAX). */
const HEAVY = `a${'\u0301'.repeat(15)}`;
/** Ids past 2^53, as numbers and as text, and one past a 64-bit integer: each names no row. */
const HUGE_IDS: Array<[string, Value]> = [
  ['2^53 + 2', 2 ** 53 + 2],
  ['1e23', 1e23],
  ['23 digits', '99999999999999999999999'],
  ['past 64 bits', '18446744073709551617'],
  ['negative 23 digits', '-99999999999999999999999'],
];

/** Bad values for one field, by its schema: every field gets the common ones, then those of its kinds. */
function badValues(schema: Schema, where: string, valid: Value): Array<[string, Value]> {
  const s = shapeOf(schema);
  const out: Array<[string, Value]> = [
    ['missing', MISSING],
    ['null', null],
    ['true', true],
    ['empty object', {}],
    ['empty array', []],
    ['string for number', 'abc'],
    ['number for string', 12345],
    ['array of the valid value', [valid]],
    ['200 levels of nesting', nested(200)],
    ['__proto__ key', withOwn({}, '__proto__', POLLUTE)],
    ['constructor.prototype key', { constructor: { prototype: POLLUTE } }],
    ['lone surrogate', '\ud800'],
    ['lone low surrogate in text', 'ab\udc00cd'],
    ['NUL byte', 'a\u0000b'],
    ['ZWJ emoji', FAMILY],
    ['100 KB string', KB100],
    ['empty string', ''],
    ['whitespace', '   \t\n  '],
    ...sample(fc.anything({ maxDepth: 3 }), 2, `${where}:anything`).map((v): [string, Value] => ['anything', v]),
  ];
  if (s.kinds.has('string')) {
    const max = s.strMax ?? 0;
    if (s.strMax !== undefined && Number.isFinite(max)) {
      out.push(['one over max length', 'y'.repeat(max + 1)]);
      out.push(['max length of emoji', FAMILY.repeat(max)]);
      out.push(['max length padded with spaces', ` ${'z'.repeat(max)} `]);
      out.push(['max length of CJK', '中'.repeat(max)]);
    }
    // The longest text in code points and in bytes that a limit counted in characters takes.
    if (s.graphemeMax !== undefined)
      out.push(
        ['most characters of emoji', FAMILY.repeat(s.graphemeMax)],
        ['most characters of 16 code points', HEAVY.repeat(s.graphemeMax)],
      );
    if (s.patterns.some((p) => p.source.includes('group-')))
      out.push(
        ['group past 2^53', `group-${2 ** 53 + 2}`],
        ['group of 23 digits', 'group-99999999999999999999999'],
        ['group of 400 digits', `group-${'9'.repeat(400)}`],
        ['group -1', 'group--1'],
        ['group 0', 'group-0'],
      );
    if (s.strMin !== undefined && s.strMin > 0) out.push(['one under min length', 'y'.repeat(s.strMin - 1)]);
    if (s.strMin !== undefined && s.strMin > 0) out.push(['min length of lone surrogates', '\ud800'.repeat(s.strMin)]);
    out.push(['SQL quote', "' OR 1=1 --"], ['RTL override', '\u202Eabc']);
    for (const v of sample(fc.string({ unit: ANY_UNIT, maxLength: 40 }), 2, `${where}:any`)) out.push(['random', v]);
    for (const v of sample(fc.string({ unit: 'grapheme', maxLength: 20 }), 1, `${where}:grapheme`))
      out.push(['random graphemes', v]);
  }
  if (s.kinds.has('number')) {
    const lo = s.numMin;
    const hi = s.numMax;
    if (lo !== undefined) out.push(['one under min', lo - 1]);
    if (hi !== undefined) out.push(['one over max', hi + 1], ['max plus a half', hi + 0.5]);
    if (s.int) out.push(['fraction', 1.5]);
    out.push(
      ['huge', 1e308],
      ['negative', -1],
      // Safe integers the schema takes that a 32-bit or 64-bit column may not.
      ['2^31', 2 ** 31],
      ['largest safe integer', Number.MAX_SAFE_INTEGER],
      ['2^53', 2 ** 53],
      ['"NaN"', 'NaN'],
      ['"Infinity"', 'Infinity'],
      ['"1e999"', '1e999'],
      ['"-0"', '-0'],
      ['"0x10"', '0x10'],
      ['" 1 "', ' 1 '],
      ['Arabic-Indic digit', '١'],
      ['400 digits', '9'.repeat(400)],
      ...HUGE_IDS,
    );
    for (const v of sample(fc.double(), 2, `${where}:double`)) out.push(['random double', v]);
    for (const v of sample(fc.bigInt(), 1, `${where}:bigint`)) out.push(['random big integer', String(v)]);
  }
  if (s.kinds.has('array')) {
    const el = s.element ? validValue(s.element, '', {}) : 1;
    const max = s.arrMax ?? 1000;
    out.push(
      ['one over max items', Array.from({ length: max + 1 }, () => el)],
      ['10000 items', Array.from({ length: 10_000 }, () => el)],
      ['nested arrays', [[el]]],
      ['array of null', [null]],
      ['array of objects', [{}]],
      ['array of strings', ['abc']],
      ['array with a lone surrogate', [el, '\ud800']],
      ['scalar for array', el],
      ['comma list for array', '1,2'],
    );
    if (s.arrMin !== undefined && s.arrMin > 0)
      out.push(['one under min items', Array.from({ length: s.arrMin - 1 }, () => el)]);
  }
  if (s.kinds.has('object') || s.kinds.has('record')) {
    out.push(
      ['array for object', ['x']],
      ['string for object', 'x'],
      ['10000 keys', Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]))],
      ['__proto__ inside', withOwn({ a: 1 }, '__proto__', POLLUTE)],
    );
  }
  if (s.kinds.has('choice')) {
    for (const c of s.choices.slice(0, 3))
      if (typeof c === 'string') out.push(['choice in upper case', c.toUpperCase()], ['choice padded', ` ${c}\u0000`]);
    out.push(['no such choice', 'no-such-choice']);
  }
  return out;
}

/** One request's worth of body: a value to encode, or raw text sent as it is. */
interface Case {
  what: string;
  body?: Value;
  raw?: { json?: string; form?: string };
}

function setAt(base: Record<string, Value>, path: string[], value: Value): Record<string, Value> {
  const root: Record<string, Value> = structuredClone(base);
  let obj: Record<string, Value> = root;
  for (const k of path.slice(0, -1)) {
    const next = obj[k];
    obj[k] = typeof next === 'object' && next !== null && !Array.isArray(next) ? { ...next } : {};
    obj = obj[k] as Record<string, Value>;
  }
  const last = path.at(-1)!;
  if (value === MISSING) delete obj[last];
  else if (last === '__proto__') Object.defineProperty(obj, last, { value, enumerable: true, writable: true });
  else obj[last] = value;
  return root;
}

/** Every field of an object schema, nested objects' fields too, with its path. */
function fieldsOf(fields: Record<string, Schema>, prefix: string[] = []): Array<[string[], Schema]> {
  return Object.entries(fields).flatMap(([k, s]): Array<[string[], Schema]> => {
    const shape = shapeOf(s);
    const own: [string[], Schema] = [[...prefix, k], s];
    return shape.kinds.has('object') && shape.fields ? [own, ...fieldsOf(shape.fields, [...prefix, k])] : [own];
  });
}

/** The cases for a route: each field spoilt in each way, then spoilt bodies as a whole. */
function casesFor(name: RouteName, hints: Hints): Case[] {
  const schema = routes[name].body as Schema;
  const base = validBody(schema, hints);
  const cases: Case[] = [{ what: 'the valid body', body: base }];
  for (const [path, s] of fieldsOf(shapeOf(schema).fields ?? {})) {
    const where = `${name}.${path.join('.')}`;
    const valid = path.reduce<Value>((o, k) => (o as Record<string, Value> | undefined)?.[k], base);
    for (const [what, v] of badValues(s, where, valid ?? 'x'))
      cases.push({ what: `${path.join('.')}: ${what}`, body: setAt(base, path, v) });
  }
  const deep = nested(200);
  cases.push(
    { what: 'body: empty object', body: {} },
    { what: 'body: array', body: [base] },
    { what: 'body: string', body: 'text' },
    { what: 'body: number', body: 42 },
    { what: 'body: null', body: null },
    { what: 'body: true', body: true },
    { what: 'body: 200 levels of nesting', body: deep },
    { what: 'body: __proto__ key', body: withOwn(base, '__proto__', { ...POLLUTE, role: 1, is_auth: 1 }) },
    { what: 'body: constructor.prototype key', body: { ...base, constructor: { prototype: POLLUTE } } },
    { what: 'body: prototype key', body: { ...base, prototype: POLLUTE } },
    {
      what: 'body: extra keys (mass assignment)',
      body: { ...base, role: 1, is_auth: 1, status: 0, user_id_: 1, password_hash: 'x', admin: true },
    },
    {
      what: 'body: 1000 unknown keys',
      body: { ...base, ...Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`u${i}`, i])) },
    },
    { what: 'body: keys with NUL and lone surrogates', body: { ...base, 'a\u0000b': 1, '\ud800': 2 } },
    {
      what: 'raw: truncated',
      raw: { json: JSON.stringify(base).slice(0, -1), form: `${qs.stringify(base)}&a[b[c=` },
    },
    { what: 'raw: not JSON / odd form', raw: { json: '{"a":1}garbage', form: '&&&==&%E0%A4%A&%' } },
    { what: 'raw: lone bracket', raw: { json: '{', form: '[' } },
    { what: 'raw: empty', raw: { json: '', form: '' } },
    { what: 'raw: NUL', raw: { json: '\u0000', form: '\u0000=\u0000' } },
    { what: 'raw: 1e999', raw: { json: '1e999', form: 'a=1e999' } },
    {
      what: 'raw: __proto__ as text',
      raw: {
        json: '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}',
        form: '__proto__[polluted]=yes&constructor[prototype][polluted]=yes&a[__proto__][polluted]=yes',
      },
    },
    {
      what: 'raw: 10000 levels of nesting',
      raw: { json: `${'['.repeat(10_000)}${']'.repeat(10_000)}`, form: `a${'[a]'.repeat(10_000)}=1` },
    },
    { what: 'raw: 10000 unclosed brackets', raw: { json: '['.repeat(10_000), form: `a${'['.repeat(10_000)}=1` } },
  );
  return cases;
}

// --- Multipart ------------------------------------------------------------------------------------

interface Part {
  name: string;
  value?: string;
  filename?: string;
  type?: string;
}

function multipartBody(boundary: string, parts: Part[], close = true): string {
  const lines = parts.map((p) => {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    const type = p.type ? `\r\nContent-Type: ${p.type}` : '';
    return `--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n${p.value ?? ''}\r\n`;
  });
  return lines.join('') + (close ? `--${boundary}--\r\n` : '');
}

const FILE: Part = { name: 'file', filename: 'note.txt', type: 'text/plain', value: 'hello' };

interface MultipartCase {
  what: string;
  contentType: string;
  payload: string;
  /** Malformed: the answer must be code 400 once signed in. */
  malformed: boolean;
  /** The fields as the handler reads them, for the oracle. */
  fields?: Record<string, string>;
}

const asField = (v: Value): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

function multipartCasesFor(name: RouteName, hints: Hints): MultipartCase[] {
  const schema = routes[name].body as Schema;
  const base = validBody(schema, hints);
  const baseParts: Part[] = Object.entries(base).map(([k, v]) => ({ name: k, value: asField(v) }));
  const B = 'sparrowBoundary16';
  const good = multipartBody(B, [...baseParts, FILE]);
  const multi = `multipart/form-data; boundary=${B}`;
  // [what, content type, body, strict]: strict cases carry nothing usable, so the answer is 400; the
  // others have valid fields before the damage, which a handler may act on first (any code, no 5xx).
  const malformed: Array<[string, string, string, boolean]> = [
    ['no boundary', 'multipart/form-data', good, true],
    ['empty boundary', 'multipart/form-data; boundary=', good, true],
    ['quoted empty boundary', 'multipart/form-data; boundary=""', good, true],
    ['boundary not in the body', 'multipart/form-data; boundary=other', good, true],
    ['body not closed', multi, multipartBody(B, [FILE], false), true],
    [
      'file part cut short',
      multi,
      `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhel`,
      true,
    ],
    ['part headers cut short', multi, `--${B}\r\nContent-Disposition: form-da`, true],
    ['part without headers', multi, `--${B}\r\n\r\nhello\r\n--${B}--\r\n`, true],
    ['file sent as a plain field', multi, multipartBody(B, [...baseParts, { name: 'file', value: 'hello' }]), true],
    ['garbage body', multi, 'this is not multipart at all', true],
    ['empty body', multi, '', true],
    ['only fields, no file', multi, multipartBody(B, baseParts), true],
    ['NUL boundary', 'multipart/form-data; boundary=\u0000', good, true],
    ['multipart/mixed', `multipart/mixed; boundary=${B}`, good, true],
    ['text/plain', 'text/plain', good, true],
    ['application/octet-stream', 'application/octet-stream', 'hello', true],
    ['image/png', 'image/png', '\u0089PNG\r\n', true],
    ['JSON instead of multipart', 'application/json', JSON.stringify(base), true],
    ['form instead of multipart', 'application/x-www-form-urlencoded', qs.stringify(base), true],
    ['fields, then the body cut short', multi, multipartBody(B, [...baseParts, FILE], false), false],
    [
      '200-character boundary',
      `multipart/form-data; boundary=${'b'.repeat(200)}`,
      multipartBody('b'.repeat(200), [...baseParts, FILE]),
      false,
    ],
    ['two files', multi, multipartBody(B, [...baseParts, FILE, FILE]), false],
    ['fields after the file', multi, multipartBody(B, [FILE, ...baseParts]), false],
    ['__proto__ field', multi, multipartBody(B, [{ name: '__proto__', value: 'x' }, ...baseParts, FILE]), false],
    ['constructor field', multi, multipartBody(B, [{ name: 'constructor', value: '{}' }, ...baseParts, FILE]), false],
    [
      '1000 fields',
      multi,
      multipartBody(B, [
        ...baseParts,
        ...Array.from({ length: 1000 }, (_, i) => ({ name: `f${i}`, value: 'v' })),
        FILE,
      ]),
      false,
    ],
    ['NUL in the file name', multi, multipartBody(B, [...baseParts, { ...FILE, filename: 'a\u0000.txt' }]), false],
    [
      'path in the file name',
      multi,
      multipartBody(B, [...baseParts, { ...FILE, filename: '../../etc/passwd' }]),
      false,
    ],
  ];
  const cases: MultipartCase[] = malformed.map(([what, contentType, payload, strict]) => ({
    what: `multipart: ${what}`,
    contentType,
    payload,
    malformed: strict,
  }));
  for (const [path, s] of fieldsOf(shapeOf(schema).fields ?? {})) {
    if (path.length !== 1) continue;
    const field = path[0]!;
    for (const [what, v] of badValues(s, `${name}.${field}`, base[field] ?? 'x')) {
      const fields = Object.fromEntries(baseParts.map((p) => [p.name, p.value ?? '']));
      if (v === MISSING) delete fields[field];
      else fields[field] = asField(v);
      const parts = Object.entries(fields).map(([k, value]) => ({ name: k, value }));
      cases.push({
        what: `multipart field ${field}: ${what}`,
        contentType: `multipart/form-data; boundary=${B}`,
        payload: multipartBody(B, [...parts, FILE]),
        malformed: false,
        fields,
      });
    }
  }
  return cases;
}

// --- Sending and judging --------------------------------------------------------------------------

type Auth = 'session' | 'none' | 'garbage';
const AUTHS: Auth[] = ['session', 'none', 'garbage'];
const unsigned = (i: number): Auth => (i % 2 ? 'garbage' : 'none');

type Encoding = 'json' | 'form';
const UNPARSABLE = Symbol('unparsable');

/** A case as sent, and the body the server will see (the oracle asks the same schema of it). */
function encode(c: Case, encoding: Encoding): { payload: string; contentType: string; seen: Value } {
  const payload =
    c.raw !== undefined
      ? (c.raw[encoding] ?? '')
      : encoding === 'json'
        ? (JSON.stringify(c.body) ?? '')
        : qs.stringify(c.body);
  if (encoding === 'form')
    return { payload, contentType: 'application/x-www-form-urlencoded', seen: qs.parse(payload, FORM_PARSE) };
  let seen: Value = {};
  if (payload.trim() !== '') {
    try {
      seen = JSON.parse(payload);
    } catch {
      seen = UNPARSABLE;
    }
  }
  return { payload, contentType: 'application/json', seen };
}

/**
 * Whether JSON text nests deeper than any schema takes: the server refuses it unparsed. Parsable
 * text is judged by its parsed depth; other text by the server's own scan, the rule itself.
 */
function tooDeep(payload: string): boolean {
  try {
    return jsonDepth(JSON.parse(payload), BODY_DEPTH_MAX) > BODY_DEPTH_MAX;
  } catch {
    return nestedDeeper(payload, BODY_DEPTH_MAX);
  }
}

/** Garbage `Authorization` values, rotated through; fast-check adds a few printable ones. */
const GARBAGE_TOKENS = [
  'bearer garbage',
  `bearer ${'A'.repeat(43)}`,
  'Bearer',
  'bearer \t ',
  `bearer ${'x'.repeat(5000)}`,
  "bearer ' OR 1=1 --",
  'bearer ../../../../etc/passwd',
  ...sample(fc.string({ minLength: 16, maxLength: 60 }), 4, 'tokens').map((s) => `bearer ${s}`),
];

interface Failure {
  route: string;
  request: string;
  problem: string;
  answer: string;
}

const clip = (s: string, n = 240) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** Everything wrong with an answer; empty when it is right. */
function judge(
  status: number,
  text: string,
  contentType: string,
  request: string,
  expected: number | undefined,
  tooLarge = false,
): string[] {
  const problems: string[] = [];
  if (status >= 500) problems.push(`HTTP ${status}`);
  let env: any;
  try {
    env = JSON.parse(text);
  } catch {
    problems.push('answer is not JSON');
  }
  if (env !== undefined) {
    if (!/application\/json/.test(contentType)) problems.push(`content-type ${contentType}`);
    if (typeof env !== 'object' || env === null || Array.isArray(env)) problems.push('answer is not an object');
    else {
      if (typeof env.code !== 'number' || !DOCUMENTED_CODES.has(env.code))
        problems.push(`undocumented code ${env.code}`);
      if (typeof env.msg !== 'string') problems.push('msg is not a string');
      if (!('data' in env)) problems.push('no data');
      const extra = Object.keys(env).filter((k) => !ENVELOPE_KEYS.has(k));
      if (extra.length) problems.push(`keys outside the envelope: ${extra.join(', ')}`);
      const httpWanted = env.code === Codes.TooMany ? 429 : env.code === Codes.ServerError ? 500 : tooLarge ? 413 : 200;
      if (status !== httpWanted) problems.push(`HTTP ${status} for code ${env.code}`);
      const fields = env.data?.fields;
      if (fields !== undefined && !(Array.isArray(fields) && fields.every((f: unknown) => typeof f === 'string')))
        problems.push('data.fields is not a list of names');
      if (expected !== undefined && env.code !== expected) problems.push(`code ${env.code}, expected ${expected}`);
    }
  }
  for (const [what, re] of LEAKS) if (re.test(text) && !re.test(request)) problems.push(`leaks ${what} (${re})`);
  const storageHex = new Set([...text.matchAll(STORAGE_HEX)].map((m) => m[0].slice(12, 76)));
  for (const m of text.matchAll(HEX64))
    if (!storageHex.has(m[0]) && !request.includes(m[0])) problems.push(`leaks a 64-hex string ${m[0]}`);
  return problems;
}

describeEachDb('bad input derived from the route schemas', (target) => {
  let server: TestServer;
  let alice: Awaited<ReturnType<typeof signUp>>;
  let bob: Awaited<ReturnType<typeof signUp>>;
  let carol: Awaited<ReturnType<typeof signUp>>;
  /** Calls the administration routes (docs/protocol.md §8), on dave: anyone else would lose the world above. */
  let root: Awaited<ReturnType<typeof signUp>>;
  let dave: Awaited<ReturnType<typeof signUp>>;
  let groupId: string | undefined;
  let sent = 0;
  let n = 0;
  const byRoute = new Map<string, number>();
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

  beforeAll(async () => {
    server = await startServer(target);
    await server.ctx.config.set('rateLimits.anyCall.perMinute', '10000000');
    await server.ctx.config.set('rateLimits.manage.perMinute', '10000000');
    await server.ctx.config.set('rateLimits.sendMessage.burst', '10000000');
    await server.ctx.config.set('rateLimits.sendMessage.perSecond', '10000000');
    await server.ctx.config.set('sysInfo.runMode', '1');
    alice = await signUp(server, 'alice_bad');
    bob = await signUp(server, 'bob_bad');
    carol = await signUp(server, 'carol_bad');
    root = await signUp(server, 'root_bad');
    dave = await signUp(server, 'dave_bad');
    await server.ctx.db.updateTable('users').set({ role: 1 }).where('id', '=', root.userId).execute();
  });

  /**
   * A group alice owns with bob and carol, and a new message in it, for each route: routes that
   * disband, leave or hand over a group would otherwise leave the routes after them only "no such
   * group" to answer. The group is made again only when a route has changed it.
   */
  async function freshWorld(): Promise<Hints> {
    const info = groupId ? await server.call('groupInfo', { group_id: groupId }, { token: alice.token }) : undefined;
    let intact = info?.code === 0 && info.data.owner_id === alice.userId && info.data.member_count === 3;
    for (;;) {
      if (!intact) {
        const group = await server.call('groupAdd', { user_ids: [bob.userId, carol.userId] }, { token: alice.token });
        if (group.code !== 0) throw new Error(`groupAdd: ${group.msg}`);
        groupId = group.data.id as string;
      }
      const message = { id: randomUUID(), toContactId: groupId, is_group: 1, type: 'text', content: 'hello' };
      const sentMsg = await server.call('sendMessage', message, { token: alice.token });
      if (sentMsg.code === 0) return hintsFor(groupId!, sentMsg.data.msg_id as number);
      if (!intact) throw new Error(`sendMessage: ${sentMsg.msg}`);
      intact = false;
    }
  }

  /** Values of the world the suite seeded, tried first when a body is built, by field name. */
  function hintsFor(group: string, msgId: number): Hints {
    return {
      user_id: [bob.userId],
      user_ids: [[bob.userId, carol.userId]],
      toContactId: [bob.userId],
      group_id: [group],
      id: [group, msgId, bob.userId],
      msg_id: [msgId],
      friend_id: [bob.userId],
      account: ['alice_bad'],
      password: ['wrong-pass'],
      realname: ['Bad Input'],
      content: ['hello'],
      // A browser's push subscription (PushSubscription.toJSON()): a P-256 point and a 16-byte secret.
      endpoint: ['https://push.example.test/send/bad-input'],
      p256dh: [Buffer.from([4, ...Array.from({ length: 64 }, (_, i) => i + 1)]).toString('base64url')],
      auth: [Buffer.alloc(16, 7).toString('base64url')],
      // The console's single sign-on and directory settings: an issuer's URL and search filters.
      issuer: ['https://sso.example.test'],
      userFilter: ['(uid={account})'],
      disabledFilter: ['(employeeType=disabled)'],
    };
  }

  afterAll(async () => {
    await server.close();
  });

  /**
   * How case `i` is sent. On SQLite: signed in, as JSON and as a form by turns, and every other case
   * signed out too (no token or a garbage one) in the other encoding; every route's cases reach both
   * encodings signed in and out. On PostgreSQL, which is there for what the database makes of the
   * values, signed in both ways (and only bodies that pass validation). Sending every case both ways
   * on SQLite as well took this suite past 450 s beside the browser suite, for the same answers.
   */
  function planFor(i: number): Array<[Encoding, Auth]> {
    if (target === 'postgres')
      return [
        ['json', 'session'],
        ['form', 'session'],
      ];
    const signedIn: Encoding = i % 2 ? 'json' : 'form';
    const plan: Array<[Encoding, Auth]> = [[signedIn, 'session']];
    if (i % 2 === 0) plan.push([(i >> 1) % 2 ? 'json' : 'form', unsigned(i >> 2)]);
    return plan;
  }

  /** Sends one request, judges the answer, and renews the session when a call ended it. */
  async function send(
    name: RouteName,
    auth: Auth,
    contentType: string,
    payload: string,
    describeIt: string,
    expected: (signedIn: boolean) => number | undefined,
    failures: Failure[],
  ): Promise<void> {
    n += 1;
    const lang = LANGS[n % LANGS.length]!;
    const headers: Record<string, string> = { 'content-type': contentType };
    if (lang !== null) headers['accept-language'] = lang;
    if (auth === 'session') headers.authorization = routes[name].admin ? root.token : alice.token;
    if (auth === 'garbage') headers.authorization = GARBAGE_TOKENS[n % GARBAGE_TOKENS.length]!;
    const res = await server.app.inject({ method: 'POST', url: routes[name].path, headers, payload });
    sent += 1;
    sentInRun += 1;
    byRoute.set(name, (byRoute.get(name) ?? 0) + 1);
    server.bodies.push(res.body);
    const request = `${describeIt} [${auth}, ${contentType.split(';')[0]}] ${clip(payload, 200)}`;
    // A body the server cannot take (unknown type, over the route's limit, nested deeper than any
    // schema) is refused before any session check; one too large with HTTP 413.
    const tooLarge = !contentType.startsWith('multipart/') && Buffer.byteLength(payload) > routes[name].bodyLimit;
    const deeper = !tooLarge && contentType.startsWith('application/json') && tooDeep(payload);
    const refused = !PARSED_TYPES.test(contentType) || tooLarge || deeper;
    const problems = judge(
      res.statusCode,
      res.body,
      String(res.headers['content-type'] ?? ''),
      payload,
      refused ? Codes.BadRequest : expected(auth === 'session'),
      tooLarge,
    );
    for (const problem of problems) failures.push({ route: name, request, problem, answer: clip(res.body) });
    if (
      auth === 'session' &&
      /^\{"code":0,/.test(res.body) &&
      (await server.ctx.sessions.fromToken(alice.token)) === null
    ) {
      const s = await server.ctx.sessions.create(alice.userId, {
        cid: '',
        isMobile: false,
        userAgent: 'test',
        ip: '127.0.0.1',
      });
      alice = { ...alice, token: `bearer ${s.token}` };
      // A password an admin set would refuse her every call until she changed it.
      await server.ctx.db
        .updateTable('users')
        .set({ must_change_password: 0 })
        .where('id', '=', alice.userId)
        .execute();
    }
  }

  const report = (failures: Failure[]) =>
    failures
      .slice(0, 30)
      .map((f) => `${f.route}: ${f.problem}\n  sent: ${f.request}\n  got:  ${f.answer}`)
      .join('\n') + (failures.length > 30 ? `\n… and ${failures.length - 30} more` : '');

  it.each(Object.keys(routes) as RouteName[])('%s', async (name) => {
    const def = routes[name];
    const schema = def.body as Schema;
    const failures: Failure[] = [];
    const needsSession = !def.public;
    const world = await freshWorld();
    const hints = def.admin ? { ...world, user_id: [dave.userId], account: ['made_bad'] } : world;
    const sentBodies = new Set<string>();

    if (def.multipart) {
      for (const [i, c] of multipartCasesFor(name, hints).entries())
        for (const auth of c.malformed ? AUTHS : (['session', unsigned(i)] as const))
          await send(
            name,
            auth,
            c.contentType,
            c.payload,
            c.what,
            (signedIn) => {
              if (needsSession && !signedIn) return Codes.NoSession;
              if (c.malformed) return Codes.BadRequest;
              return c.fields && !schema.safeParse(c.fields).success ? Codes.BadRequest : undefined;
            },
            failures,
          );
    }

    for (const [i, c] of casesFor(name, hints).entries()) {
      for (const [encoding, auth] of planFor(i)) {
        const { payload, contentType, seen } = encode(c, encoding);
        // Spoilt values often encode alike (a form has no null, {} or []): each distinct body once.
        const key = `${encoding}:${auth === 'session'}:${payload}`;
        if (sentBodies.has(key)) continue;
        const parsed = seen === UNPARSABLE ? undefined : schema.safeParse(seen ?? {});
        // On PostgreSQL only bodies that pass validation are worth sending: the others never reach it.
        if (target === 'postgres' && !def.multipart && !parsed?.success) continue;
        // A body that validates to what an earlier one did (a form's "3" and JSON's 3) would only do the
        // same work again, and some work is slow on purpose (password hashing).
        const handed = parsed?.success ? `valid:${auth === 'session'}:${JSON.stringify(parsed.data)}` : key;
        if (sentBodies.has(handed)) continue;
        sentBodies.add(key).add(handed);
        await send(
          name,
          auth,
          contentType,
          payload,
          c.what,
          (signedIn) => {
            if (!parsed) return Codes.BadRequest;
            if (needsSession && !signedIn) return Codes.NoSession;
            // Multipart routes read a file from a body that is not multipart: "file missing".
            if (def.multipart) return Codes.BadRequest;
            if (!parsed.success) return Codes.BadRequest;
            // U+0000 cannot be stored in PostgreSQL text: refused as an invalid field on every database.
            return containsNul(parsed.data) ? Codes.BadRequest : undefined;
          },
          failures,
        );
      }
    }
    expect(failures.length, `${failures.length} bad answers on ${name}:\n${report(failures)}`).toBe(0);
  });

  it('the robot webhook answers every spoilt body with one of its codes, in time, leaking nothing', async () => {
    const group = (await freshWorld()).group_id![0] as string;
    const made = await server.call('groupRobotAdd', { group_id: group, name: 'Bad' }, { token: alice.token });
    expect(made.code, made.msg).toBe(0);
    const { pathname, search } = new URL(made.data.url as string);
    const valid: Array<Record<string, unknown>> = [
      {
        msgtype: 'text',
        text: { content: 'hi', mentioned_list: ['bob_bad', '@all'], mentioned_mobile_list: ['@all'] },
      },
      { msgtype: 'markdown', markdown: { content: '**hi** <@bob_bad>' } },
      { msgtype: 'image', image: { base64: 'iVBORw0KGgo=', md5: '0'.repeat(32) } },
      {
        msgtype: 'news',
        news: { articles: [{ title: 't', description: 'd', url: 'https://example.com', picurl: '' }] },
      },
      { type: 'text', content: 'hi', at: [bob.userId, 0], id: 'bad-input-robot' },
      { type: 'markdown', content: '# hi', at: [] },
      { type: 'image', base64: 'iVBORw0KGgo=' },
    ];
    const spoils: unknown[] = [
      MISSING,
      null,
      true,
      0,
      -1,
      2 ** 64,
      '',
      ' ',
      'x'.repeat(40_000),
      [],
      {},
      [[[[[]]]]],
      '\u0000',
      '\ud800',
      JSON.parse('{"__proto__":{"polluted":1}}'),
      { constructor: { prototype: { polluted: 1 } } },
    ];
    /** Every path to a leaf of a body, with the leaf replaced by `value` (or removed). */
    const spoilt = (body: unknown, value: unknown): unknown[] => {
      if (typeof body !== 'object' || body === null) return [];
      const out: unknown[] = [];
      for (const key of Object.keys(body)) {
        const copy: any = Array.isArray(body) ? [...body] : { ...body };
        if (value === MISSING) delete copy[key];
        else copy[key] = value;
        out.push(copy);
        for (const inner of spoilt((body as any)[key], value)) {
          const deeper: any = Array.isArray(body) ? [...body] : { ...body };
          deeper[key] = inner;
          out.push(deeper);
        }
      }
      return out;
    };
    const payloads: Array<{ payload: string; type?: string }> = [
      ...valid.flatMap((body) => spoils.flatMap((v) => spoilt(body, v))).map((b) => ({ payload: JSON.stringify(b) })),
      ...['', 'null', '[]', '"text"', '{', '{"msgtype":', '['.repeat(100_000), `{"a":"${'x'.repeat(4_000_000)}"}`].map(
        (payload) => ({ payload }),
      ),
      { payload: 'msgtype=text&text[content]=hi', type: 'application/x-www-form-urlencoded' },
      { payload: JSON.stringify(valid[0]), type: 'text/plain' },
      { payload: JSON.stringify(valid[0]), type: 'application/xml' },
    ];
    const codes = new Set<number>(Object.values(RobotErrcodes));
    const failures: string[] = [];
    let slowest = 0;
    for (const [i, { payload, type }] of payloads.entries()) {
      // A minute per budget of posts: what is judged is the body, not the robot's rate limit.
      if (i % ROBOT_MESSAGES_PER_MINUTE === 0) server.clock.advance(61_000);
      const lang = LANGS[i % LANGS.length];
      const started = performance.now();
      const res = await server.app.inject({
        method: 'POST',
        url: `${pathname}${search}`,
        headers: { 'content-type': type ?? 'application/json', ...(lang ? { 'accept-language': lang } : {}) },
        payload,
      });
      slowest = Math.max(slowest, performance.now() - started);
      sent += 1;
      sentInRun += 1;
      const problems: string[] = [];
      if (res.statusCode !== 200) problems.push(`HTTP ${res.statusCode}`);
      let answer: any;
      try {
        answer = res.json();
      } catch {
        problems.push('answer is not JSON');
      }
      if (answer !== undefined) {
        if (Object.keys(answer).sort().join() !== 'errcode,errmsg') problems.push(`keys ${Object.keys(answer).join()}`);
        if (!codes.has(answer.errcode)) problems.push(`undocumented errcode ${answer.errcode}`);
        if (typeof answer.errmsg !== 'string' || !answer.errmsg) problems.push('no errmsg');
      }
      for (const [what, re] of LEAKS) if (re.test(res.body) && !re.test(payload)) problems.push(`leaks ${what}`);
      if (problems.length) failures.push(`${clip(payload, 160)} → ${problems.join('; ')}: ${clip(res.body)}`);
    }
    console.log(`bad-input [${target}]: robot webhook ${payloads.length} bodies, slowest ${Math.round(slowest)} ms`);
    expect(failures, failures.slice(0, 20).join('\n')).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it(`sent at least ${MIN_REQUESTS} requests in the run, every route among them, and polluted no prototype`, () => {
    console.log(`bad-input [${target}]: ${sent} requests on ${byRoute.size} routes (${sentInRun} in the run)`);
    expect(sentInRun).toBeGreaterThanOrEqual(MIN_REQUESTS);
    expect(Object.keys(routes).filter((name) => !byRoute.get(name))).toEqual([]);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
