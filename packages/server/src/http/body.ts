import formbody from '@fastify/formbody';
import { BODY_DEPTH_MAX } from '@sparrow/protocol';
import type { FastifyInstance } from 'fastify';
import qs from 'qs';
import { AppError } from '../errors';

/** How qs reads a form body: the depth no schema exceeds, and arrays no longer than any schema takes. */
export const FORM_PARSE = { depth: 4, arrayLimit: 200 } as const;

/**
 * Whether JSON text nests objects and arrays deeper than `limit`, by one pass over its characters
 * (brackets inside strings do not count). It runs before `JSON.parse`, so a body of a million
 * brackets costs a scan of its bytes rather than a parse, a walk and a collection of what it built.
 * Text that is not JSON may be judged either way: the parse refuses it next.
 */
export function nestedDeeper(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * JSON and form bodies, each read only up to its route's `bodyLimit` (Fastify stops reading past it:
 * 413) and refused when nested deeper than BODY_DEPTH_MAX before it is parsed.
 */
export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body).trim();
    if (text === '') return done(null, {});
    if (nestedDeeper(text, BODY_DEPTH_MAX)) return done(new AppError('BodyTooDeep', {}, { fields: ['body'] }));
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AppError('Validation', {}, { fields: ['body'] }), undefined);
    }
  });
  // qs nests no deeper than FORM_PARSE.depth whatever the keys say: deeper brackets stay in the key.
  await app.register(formbody, { parser: (s) => qs.parse(s, FORM_PARSE) });
}
