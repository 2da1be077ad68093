import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const benchDir = path.join(root, 'bench');

/** Each `import { a, b as c } from '…'` of a benchmark that names a module of ours, with the names it takes. */
function importsOf(file: string): { from: string; names: string[] }[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: { from: string; names: string[] }[] = [];
  for (const m of text.matchAll(/^import\s+\{([^}]*)\}\s+from\s+'([^']+)';/gm)) {
    const from = m[2]!;
    if (!from.startsWith('../packages/') && !from.startsWith('@sparrow/')) continue;
    const names = m[1]!
      .split(',')
      .map((n) =>
        n
          .trim()
          .split(/\s+as\s+/)[0]!
          .trim(),
      )
      .filter(Boolean);
    found.push({ from, names });
  }
  return found;
}

/**
 * The benchmarks run outside the test suite and import the server's source by path: a rename in the
 * server must not leave `npm run bench` broken until someone runs it.
 */
describe('what the benchmarks import of the server and the protocol', () => {
  const files = fs
    .readdirSync(benchDir)
    .filter((f) => f.endsWith('.mjs'))
    .map((f) => path.join(benchDir, f));

  it.each(files.map((f) => [path.basename(f), f]))('%s imports only names that exist', async (_, file) => {
    for (const { from, names } of importsOf(file)) {
      const target = from.startsWith('@sparrow/') ? from : path.resolve(path.dirname(file), from);
      const module: Record<string, unknown> = await import(target);
      for (const name of names) expect(module[name], `${name} from ${from}`).toBeDefined();
    }
  });
});
