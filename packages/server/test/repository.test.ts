/**
 * The repository stands on its own: every document the code, tests and READMEs cite is in `docs/`,
 * each `§` they cite is a heading there, nothing points outside the repository, and the licence is
 * stated once for every package.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const self = path.relative(root, fileURLToPath(import.meta.url));

/** Folders that are built, installed or written by runs, not sources. */
const SKIPPED = new Set(['node_modules', 'dist', 'data', 'test-results', 'coverage', '.git', '.vite']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|md|json|css|html|ya?ml|sh|conf)$|(^|\/)(Dockerfile|run)$/;

function sources(dir = root, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name) || entry.name.endsWith('.tsbuildinfo')) continue;
    const full = path.join(dir, entry.name);
    const rel = path.relative(root, full);
    if (entry.isDirectory()) sources(full, out);
    else if (TEXT.test(rel) && rel !== 'package-lock.json' && rel !== self) out.push(rel);
  }
  return out;
}

/** Names of documents that live outside the repository, and ways of citing them. */
const OUTSIDE: Array<[RegExp, string]> = [
  [/\.\.\/shared\b/, 'a folder beside the repository'],
  [/(?<![\w/.-])(api|product-spec|raingad-protocol|design|style)\.md\b/, 'a document cited without its place in docs/'],
  [/\bspec (§|:)/i, 'a section of a specification that is not in the repository'],
  [/\bthe spec\b/i, 'a specification that is not in the repository'],
];

/** `docs/x.md` and `docs/x.md §N[.M]` as the sources cite them. */
const CITATION = /\bdocs\/([\w-]+\.md)(?:\s?§(\d+(?:\.\d+)?))?/g;

function headings(file: string): Set<string> {
  const numbers = new Set<string>();
  for (const line of fs.readFileSync(path.join(root, 'docs', file), 'utf8').split('\n')) {
    const m = /^#{2,3} (\d+(?:\.\d+)?)[.\s]/.exec(line);
    if (m) numbers.add(m[1]!);
  }
  return numbers;
}

describe('the repository on its own', () => {
  const files = sources();

  it('finds the sources it checks', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('packages/server/src/app.ts');
  });

  it('points at no document outside the repository', () => {
    const found: string[] = [];
    for (const file of files) {
      const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const [pattern, why] of OUTSIDE) if (pattern.test(line)) found.push(`${file}:${i + 1}: ${why}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('cites documents of docs/ that exist, and sections that are headings there', () => {
    const known = new Map<string, Set<string>>();
    const broken: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const m of text.matchAll(CITATION)) {
        const [, doc, section] = m as unknown as [string, string, string | undefined];
        if (!fs.existsSync(path.join(root, 'docs', doc))) {
          broken.push(`${file}: docs/${doc} does not exist`);
          continue;
        }
        if (!section) continue;
        if (!known.has(doc)) known.set(doc, headings(doc));
        if (!known.get(doc)!.has(section)) broken.push(`${file}: docs/${doc} has no section ${section}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('is licensed under Apache-2.0, said once at the root and in every package', () => {
    expect(fs.readFileSync(path.join(root, 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0/);
    const manifests = files.filter((f) => path.basename(f) === 'package.json');
    expect(manifests.length).toBeGreaterThanOrEqual(5);
    for (const manifest of manifests) {
      const { license } = JSON.parse(fs.readFileSync(path.join(root, manifest), 'utf8')) as { license?: string };
      expect([manifest, license]).toEqual([manifest, 'Apache-2.0']);
    }
  });
});
