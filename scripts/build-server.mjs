// The compiled server `npm start` runs: packages/server/src (with @sparrow/protocol's TypeScript
// source) and the npm packages it loads at start, bundled by esbuild into
// packages/server/dist/main.js, made when it is missing or older than its sources. Native addons,
// packages that read files of their own, and packages loaded on first use stay in node_modules.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverDist = path.join(root, 'packages/server/dist');
export const serverMain = path.join(serverDist, 'main.js');
/**
 * The browser suite's own bundle, beside dist/ (the bundle finds node_modules and the repository by
 * walking up): `npm test` runs the browser suite beside the integration suites, whose start test
 * removes and rebuilds dist/.
 */
export const e2eServerDist = path.join(root, 'packages/server/dist-e2e');
/** How the bundle is run: stack traces point into the TypeScript sources through its source map. */
export const serverNodeArgs = ['--enable-source-maps'];

/**
 * npm packages that stay outside the bundle, loaded from node_modules at run time:
 * - native addons, and the optional native helpers of ws and pg;
 * - packages that find files beside themselves (the API viewer's assets, esbuild's binary);
 * - packages loaded on first use (`lib/lazy.ts`, dynamic imports): bundled, their code would load
 *   with the server's whether or not a request ever needs it.
 * Every other package goes into the bundle, cut to the parts Sparrow imports: V8 keeps the text of
 * every module it loads for as long as the process runs, and a package's own files carry comments,
 * blank space and code Sparrow never calls (`bench/idle-memory.mjs`).
 */
export const externalPackages = [
  'better-sqlite3',
  'sharp',
  'bufferutil',
  'utf-8-validate',
  'pg-native',
  'swagger-ui-dist',
  'ip2region',
  'esbuild',
  'pg',
  'ioredis',
  'nodemailer',
  'web-push',
  'pinyin-pro',
  'sanitize-html',
  'tar',
  'music-metadata',
  'file-type',
  'archiver',
  'openid-client',
  'ldapts',
  'typescript',
  '@aws-sdk/client-s3',
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
];

/** The package a bare import names: `@scope/name` or `name`. */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** What the bundle is made from: a newer file in any of these makes it stale. */
const sources = [
  path.join(root, 'packages/server/src'),
  path.join(root, 'packages/protocol/src'),
  path.join(root, 'packages/server/package.json'),
  path.join(root, 'packages/protocol/package.json'),
  // The release's version (APP_VERSION reads it).
  path.join(root, 'package.json'),
  // The bundled npm packages: an install that changes one changes the lock file.
  path.join(root, 'package-lock.json'),
  fileURLToPath(import.meta.url),
];

function newest(file) {
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(file, { recursive: true })) {
    latest = Math.max(latest, fs.statSync(path.join(file, entry)).mtimeMs);
  }
  return latest;
}

/** Whether dist/main.js is there and newer than every source. */
export function serverBuildFresh() {
  if (!fs.existsSync(serverMain)) return false;
  const built = fs.statSync(serverMain).mtimeMs;
  return sources.every((s) => newest(s) <= built);
}

/** Bundles the server into `outDir` (packages/server/dist). */
export async function buildServer(outDir = serverDist) {
  fs.rmSync(outDir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: { main: path.join(root, 'packages/server/src/main.ts') },
    outdir: outDir,
    bundle: true,
    // Modules imported on demand (the AWS SDK for a bucket) stay out of the start: chunks of their own.
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: true,
    // Without comments and blank space: the bundle's text stays in memory as long as the process
    // runs, and a comment with a character beyond Latin-1 (→, –, 群) made V8 hold all of it at two
    // bytes a character. Names are kept, for stack traces and logs.
    minifyWhitespace: true,
    minifySyntax: true,
    // Stack traces need only the mappings; the sources' text would stay parsed in memory for as long
    // as the process runs (--enable-source-maps keeps every map it reads), and is in packages/*/src.
    sourcesContent: false,
    logLevel: 'warning',
    // The CommonJS packages in the bundle call `require` for Node's own modules and for the
    // packages above; an ES module has none of its own.
    banner: {
      js: "import{createRequire as __createRequire}from'node:module';const require=__createRequire(import.meta.url);",
    },
    plugins: [
      {
        name: 'external-packages',
        setup(build) {
          const external = new Set(externalPackages);
          build.onResolve({ filter: /^[^./]/ }, (args) =>
            external.has(packageOf(args.path)) ? { path: args.path, external: true } : undefined,
          );
        },
      },
    ],
  });
  // esbuild's service process would otherwise live as long as `npm start` does.
  await esbuild.stop();
  for (const file of fs.readdirSync(outDir).filter((f) => f.endsWith('.js.map'))) {
    ownMappingsOnly(path.join(outDir, file));
  }
  // Started by the checkpointer as `new URL('./checkpoint-worker.mjs', import.meta.url)`, which in
  // the bundle is dist/.
  fs.copyFileSync(
    path.join(root, 'packages/server/src/db/checkpoint-worker.mjs'),
    path.join(outDir, 'checkpoint-worker.mjs'),
  );
}

/**
 * Keeps the mappings into Sparrow's own sources and drops those into the bundled packages:
 * --enable-source-maps holds a map's text for as long as the process runs, and the packages'
 * mappings would be four fifths of it. A package's frame in a stack trace then reads as a place in
 * the bundle, with its function's name.
 */
function ownMappingsOnly(file) {
  const map = JSON.parse(fs.readFileSync(file, 'utf8'));
  const own = map.sources.map((source) => !source.includes('node_modules/'));
  const lines = decode(map.mappings).map((segments) => segments.filter((s) => s.length > 1 && own[s[1]]));
  fs.writeFileSync(file, JSON.stringify({ ...map, mappings: encode(lines) }));
}

/** Builds the server unless its bundle is fresh (SPARROW_REBUILD=1 builds it anyway). */
export async function ensureServerBuild() {
  if (process.env.SPARROW_REBUILD !== '1' && serverBuildFresh()) return;
  console.log('Building the server…');
  const started = performance.now();
  await buildServer();
  console.log(`Built ${path.relative(root, serverMain)} in ${Math.round(performance.now() - started)} ms`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
