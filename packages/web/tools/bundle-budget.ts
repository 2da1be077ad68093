import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The first screen may load at most this much gzipped JavaScript (issue 2: 150 KB). */
export const FIRST_SCREEN_BUDGET_BYTES = 150_000;

/**
 * What the login page needs before it paints, by source path in the Vite manifest: the page
 * chunks of `/` and `/pages/login/login` and the first part of the locale in use (its rest comes
 * after the paint, tools/locale-parts.ts). The entry and every static import of these come along.
 * Only one locale is loaded (English, the fallback, only if a key were missing, which
 * locales.test.ts rules out); the largest first part stands for whichever is in use.
 */
export const FIRST_SCREEN_PAGES = ['src/pages/login/index.tsx', 'src/pages/login/login.tsx'];
const LOCALE_SOURCE = /^src\/i18n\/locales\/[^/]+\.json\?part=first$/;

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface BudgetReport {
  files: { file: string; gzipBytes: number }[];
  totalGzipBytes: number;
  budgetBytes: number;
  ok: boolean;
}

/** A chunk's key and every key it imports statically, transitively. */
function staticClosure(manifest: Manifest, key: string, into: Set<string>): void {
  if (into.has(key)) return;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`manifest has no entry "${key}"`);
  into.add(key);
  for (const dep of chunk.imports ?? []) staticClosure(manifest, dep, into);
}

function gzipSize(distDir: string, file: string): number {
  return gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length;
}

/** The JavaScript files (relative to dist) the first screen loads, given the manifest. */
export function firstScreenFiles(manifest: Manifest, distDir: string): string[] {
  const keys = new Set<string>();
  const entries = Object.keys(manifest).filter((k) => manifest[k]?.isEntry);
  if (entries.length === 0) throw new Error('manifest has no entry chunk');
  for (const key of entries) staticClosure(manifest, key, keys);
  for (const page of FIRST_SCREEN_PAGES) staticClosure(manifest, page, keys);

  const locales = Object.keys(manifest).filter((k) => LOCALE_SOURCE.test(k));
  const largest = locales.sort(
    (a, b) => gzipSize(distDir, manifest[b]!.file) - gzipSize(distDir, manifest[a]!.file),
  )[0];
  if (!largest) throw new Error('manifest has no first part of a locale (src/i18n/locales/*.json?part=first)');
  staticClosure(manifest, largest, keys);

  const files = new Set([...keys].map((k) => manifest[k]!.file));
  return [...files].filter((f) => f.endsWith('.js'));
}

/** Measures the first screen's gzipped JavaScript in a built dist/ against a budget. */
export function measureFirstScreen(distDir: string, budgetBytes: number = FIRST_SCREEN_BUDGET_BYTES): BudgetReport {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const files = firstScreenFiles(manifest, distDir).map((file) => ({
    file,
    gzipBytes: gzipSize(distDir, file),
  }));
  const totalGzipBytes = files.reduce((sum, f) => sum + f.gzipBytes, 0);
  return { files, totalGzipBytes, budgetBytes, ok: totalGzipBytes <= budgetBytes };
}

export function formatReport(r: BudgetReport): string {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  const lines = r.files
    .sort((a, b) => b.gzipBytes - a.gzipBytes)
    .map((f) => `  ${kb(f.gzipBytes).padStart(9)}  ${f.file}`);
  return [
    'JavaScript before the login page paints (gzip -9):',
    ...lines,
    `  ${kb(r.totalGzipBytes).padStart(9)}  total, budget ${kb(r.budgetBytes)}: ${r.ok ? 'OK' : 'OVER BUDGET'}`,
  ].join('\n');
}

// `npx tsx packages/web/tools/bundle-budget.ts [dist]` prints the report for a built client.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dist = process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url));
  const report = measureFirstScreen(dist);
  console.log(formatReport(report));
  process.exitCode = report.ok ? 0 : 1;
}
