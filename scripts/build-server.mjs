// The compiled server `npm start` runs: packages/server/src (with @sparrow/protocol's TypeScript
// source) bundled by esbuild into packages/server/dist/main.js, made when it is missing or older
// than its sources. npm packages stay outside the bundle and load from node_modules as usual.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverDist = path.join(root, 'packages/server/dist');
export const serverMain = path.join(serverDist, 'main.js');

/** What the bundle is made from: a newer file in any of these makes it stale. */
const sources = [
  path.join(root, 'packages/server/src'),
  path.join(root, 'packages/protocol/src'),
  path.join(root, 'packages/server/package.json'),
  path.join(root, 'packages/protocol/package.json'),
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

/** Bundles the server into packages/server/dist. */
export async function buildServer() {
  fs.rmSync(serverDist, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: { main: path.join(root, 'packages/server/src/main.ts') },
    outdir: serverDist,
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
    plugins: [
      {
        // Our workspace packages are TypeScript source and go into the bundle; every other
        // package is loaded from node_modules at run time (native addons, package assets).
        name: 'npm-packages-external',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@sparrow/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  // esbuild's service process would otherwise live as long as `npm start` does.
  await esbuild.stop();
  // Started by the checkpointer as `new URL('./checkpoint-worker.mjs', import.meta.url)`, which in
  // the bundle is dist/.
  fs.copyFileSync(
    path.join(root, 'packages/server/src/db/checkpoint-worker.mjs'),
    path.join(serverDist, 'checkpoint-worker.mjs'),
  );
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
