// The built web client, made when it is missing: `npm start` serves it and the browser benchmark opens it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const webDist = path.join(root, 'packages/web/dist');

/** Builds the web client unless it is there already (SPARROW_REBUILD=1 builds it anyway); throws when the build fails. */
export function ensureWebClient() {
  const rebuild = process.env.SPARROW_REBUILD === '1';
  if (!rebuild && fs.existsSync(path.join(webDist, 'index.html'))) return;
  console.log('Building the web client…');
  const built = spawnSync('npm', ['run', 'build', '-w', '@sparrow/web'], { cwd: root, stdio: 'inherit' });
  if (built.status === 0) return;
  const why = built.error?.message ?? (built.signal ? `stopped by ${built.signal}` : `exit code ${built.status}`);
  throw new Error(`building the web client failed: ${why}`);
}
