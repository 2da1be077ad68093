import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';
import type * as IORedis from 'ioredis';
import type sharp from 'sharp';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package loaded on first use instead of at start: a server that has not needed it yet
 * (no upload, no Chinese name, no Redis, no mail) does not hold its code and data in memory. Each
 * of these costs 2–20 MB of resident memory once loaded (`bench/idle-memory.mjs`).
 */
export function onFirstUse<T>(name: string, prepare?: (loaded: T) => void, from = require): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      loaded = from(name) as T;
      prepare?.(loaded);
    }
    return loaded;
  };
}

/** An ES-module-only package, imported on first use for the same reason. */
export function importOnFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}

/** sharp (libvips): uploaded pictures, thumbnails, avatars, group avatars. */
export const loadSharp = onFirstUse<typeof sharp>('sharp');

/** ioredis: the bus, presence, limits and calls across nodes, and the readiness probe; with REDIS_URL only. */
export const loadRedis = onFirstUse<typeof IORedis>('ioredis');

/** file-type: what an upload really is, from its first bytes. */
export const loadFileType = importOnFirstUse(() => import('file-type'));

/** archiver: the zip of a user's data export (modules/account/archive.ts), made only when one is asked for. */
export const loadArchiver = importOnFirstUse(() => import('archiver'));

/** ldapts: the LDAP client of directory sign-in (modules/ldap), loaded at the first sign-in through a directory. */
export const loadLdap = importOnFirstUse(() => import('ldapts'));

type Compilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type ValidatorFactory = NonNullable<Compilers['buildValidator']>;
type SerializerFactory = NonNullable<Compilers['buildSerializer']>;

/** A package Fastify depends on, loaded from where Fastify finds it. */
const fromFastify = createRequire(require.resolve('fastify'));
const ajvCompiler = onFirstUse<() => ValidatorFactory>('@fastify/ajv-compiler', undefined, fromFastify);
const serializerCompiler = onFirstUse<() => SerializerFactory>(
  '@fastify/fast-json-stringify-compiler',
  undefined,
  fromFastify,
);

/**
 * Fastify's compilers for routes with a JSON schema (ajv and fast-json-stringify), loaded if one is
 * ever asked for. Sparrow validates with its zod schemas (`http/route.ts`) and writes its own
 * envelopes, so none is: loaded at start, as Fastify does by default, they held about 1 MB of
 * source and what V8 makes of it.
 */
export const fastifyCompilers: Compilers = {
  buildValidator: builtOnCall<ValidatorFactory>(ajvCompiler),
  buildSerializer: builtOnCall<SerializerFactory>(serializerCompiler),
};

/** A compiler factory that loads its package and makes the real one when it is first called. */
function builtOnCall<F>(selector: () => () => F): F {
  return ((...args: unknown[]) => (selector()() as (...a: unknown[]) => unknown)(...args)) as F;
}
