import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIRST_SCREEN_BUDGET_BYTES, formatReport, measureFirstScreen, type Manifest } from '../tools/bundle-budget';

const webRoot = fileURLToPath(new URL('..', import.meta.url));
const protocolSrc = fileURLToPath(new URL('../../protocol/src', import.meta.url));

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** dist/ when it was built after the last change to the sources; otherwise a fresh build. */
async function buildOrReuse(): Promise<string> {
  const dist = join(webRoot, 'dist');
  const manifest = join(dist, '.vite', 'manifest.json');
  if (existsSync(manifest)) {
    const sources = Math.max(
      newestMtime(join(webRoot, 'src')),
      newestMtime(join(webRoot, 'index.html')),
      newestMtime(join(webRoot, 'vite.config.ts')),
      newestMtime(protocolSrc),
    );
    if (statSync(manifest).mtimeMs >= sources) return dist;
  }
  const outDir = mkdtempSync(join(tmpdir(), 'sparrow-web-dist-'));
  const { build } = await import('vite');
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(webRoot, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'error',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  return outDir;
}

let built: Promise<string> | null = null;
const builtDist = () => (built ??= buildOrReuse());

/** A dist/ with a hand-made manifest: sizes are known because the bytes are random. */
function fakeDist(entryBytes: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'sparrow-budget-'));
  mkdirSync(join(dir, '.vite'));
  mkdirSync(join(dir, 'assets'));
  const write = (file: string, bytes: number) => writeFileSync(join(dir, file), randomBytes(bytes).toString('base64'));
  write('assets/entry.js', entryBytes);
  write('assets/shared.js', 1000);
  write('assets/login.js', 1000);
  write('assets/en.js', 500);
  write('assets/zh.js', 700);
  write('assets/zh-rest.js', 50_000);
  write('assets/settings.js', 400_000);
  const manifest: Manifest = {
    'index.html': { file: 'assets/entry.js', isEntry: true, imports: ['_shared.js'] },
    '_shared.js': { file: 'assets/shared.js' },
    'src/pages/login/index.tsx': {
      file: 'assets/login.js',
      isDynamicEntry: true,
      imports: ['index.html', 'src/pages/login/login.tsx'],
    },
    'src/pages/login/login.tsx': { file: 'assets/login.js', isDynamicEntry: true },
    'src/i18n/locales/en.json?part=first': { file: 'assets/en.js', isDynamicEntry: true },
    'src/i18n/locales/zh-Hans.json?part=first': { file: 'assets/zh.js', isDynamicEntry: true },
    'src/i18n/locales/zh-Hans.json?part=rest': { file: 'assets/zh-rest.js', isDynamicEntry: true },
    'src/pages/mine/setting.tsx': { file: 'assets/settings.js', isDynamicEntry: true },
  };
  writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

describe('first-screen bundle budget', () => {
  it('keeps the JavaScript loaded before the login page paints within 150 KB gzipped', async () => {
    const report = measureFirstScreen(await builtDist());
    console.info(formatReport(report));
    expect(report.files.length).toBeGreaterThan(1);
    expect(report.totalGzipBytes).toBeGreaterThan(0);
    expect(report.totalGzipBytes).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_BYTES);
    expect(report.ok).toBe(true);
  }, 120_000);

  it('counts the entry, its static imports, the login chunks and the largest first part of a locale only', () => {
    const report = measureFirstScreen(fakeDist(2000));
    expect(report.files.map((f) => f.file).sort()).toEqual([
      'assets/entry.js',
      'assets/login.js',
      'assets/shared.js',
      'assets/zh.js',
    ]);
    expect(report.ok).toBe(true);
  });

  it('fails when the first screen grows past the budget', () => {
    const overweight = measureFirstScreen(fakeDist(160_000));
    expect(overweight.totalGzipBytes).toBeGreaterThan(FIRST_SCREEN_BUDGET_BYTES);
    expect(overweight.ok).toBe(false);
    expect(formatReport(overweight)).toContain('OVER BUDGET');
  });

  it('fails a real build against a budget it exceeds', async () => {
    const report = measureFirstScreen(await builtDist(), 10_000);
    expect(report.ok).toBe(false);
  }, 120_000);
});
