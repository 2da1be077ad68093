import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode } from '@jridgewell/sourcemap-codec';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './cluster';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bundle = path.join(root, 'packages/server/dist/main.js');

/** `npm start` as an operator runs it (scripts/start.mjs), on a free port and a temp data folder. */
class Start {
  readonly output: string[] = [];
  private child: ChildProcess | undefined;
  readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-start-'));
  port = 0;

  async run(): Promise<void> {
    this.port = await freePort();
    this.output.length = 0;
    const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
      cwd: root,
      env: { ...process.env, SPARROW_REBUILD: '', DATA_DIR: this.dataDir, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (d: Buffer) => this.output.push(String(d)));
    child.stderr?.on('data', (d: Buffer) => this.output.push(String(d)));
    // Building the web client, when it is missing, takes minutes on a busy machine.
    const deadline = Date.now() + 280_000;
    for (;;) {
      const res = await fetch(`http://127.0.0.1:${this.port}/healthz`).catch(() => null);
      if (res?.ok) return;
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`npm start did not come up:\n${this.output.join('')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The pid of the server process start.mjs runs. */
  serverPid(): number {
    const pid = this.child!.pid!;
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
    expect(children).toHaveLength(1);
    return Number(children[0]);
  }

  /** The command line of the server process start.mjs runs. */
  serverCommand(): string {
    return fs.readFileSync(`/proc/${this.serverPid()}/cmdline`, 'utf8').split('\0').join(' ');
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  get(url: string) {
    return fetch(`http://127.0.0.1:${this.port}${url}`);
  }
}

describe.skipIf(process.platform !== 'linux')('npm start', () => {
  const start = new Start();
  afterAll(async () => {
    await start.stop();
    fs.rmSync(start.dataDir, { recursive: true, force: true });
  });

  it('builds the missing server bundle, runs it, answers /healthz and serves the web client', async () => {
    // A fresh checkout has no bundle.
    fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
    await start.run();
    expect(start.output.join('')).toMatch(/Building the server…[\s\S]*Built packages\/server\/dist\/main\.js/);
    const command = start.serverCommand();
    expect(command).toContain(bundle);
    expect(command).not.toContain('tsx');
    expect(fs.existsSync(path.join(root, 'packages/server/dist/checkpoint-worker.mjs'))).toBe(true);
    // The source map leads into Sparrow's TypeScript, and nowhere into the bundled packages.
    const map = JSON.parse(fs.readFileSync(`${bundle}.map`, 'utf8')) as { sources: string[]; mappings: string };
    const mapped = new Set(decode(map.mappings).flatMap((line) => line.map((s) => map.sources[s[1]!]!)));
    expect([...mapped].filter((source) => source.includes('node_modules/'))).toEqual([]);
    expect([...mapped]).toContainEqual(expect.stringMatching(/^\.\.\/src\/main\.ts$/));
    // At run time too: an error at start names the TypeScript file and line it came from.
    const failed = spawnSync(process.execPath, ['--enable-source-maps', bundle], {
      // SQLite, whose file goes in DATA_DIR: a data folder inside a file stops the start.
      env: {
        ...process.env,
        DATABASE_URL: '',
        REDIS_URL: '',
        DATA_DIR: '/etc/hostname/data',
        PORT: '0',
        HOST: '127.0.0.1',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toMatch(/ENOTDIR[\s\S]*at openDb \(.*packages\/server\/src\/db\/index\.ts:\d+:\d+\)/);

    // The bundle reports the release: the root package.json's version, read when it was built.
    const release = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
    expect(await (await start.get('/healthz')).json()).toEqual({ status: 'ok', version: release });
    // The accept queue holds a reconnect storm: as long as the system allows (Send-Q of a listening socket).
    const somaxconn = Number(fs.readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    const listening = execFileSync('ss', ['-ltnH', `sport = :${start.port}`], { encoding: 'utf8' })
      .trim()
      .split(/\s+/);
    expect(Number(listening[2])).toBe(Math.min(somaxconn, 8192));
    const page = await start.get('/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"></div>');
    // Package assets found from the bundle's place: the API viewer and its document.
    expect((await start.get('/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
    expect(((await (await start.get('/openapi.json')).json()) as { openapi: string }).openapi).toMatch(/^3\./);
    // The SQLite checkpoint thread runs from dist/ too: it would have logged its failure.
    expect(start.output.join('')).not.toMatch(/checkpoint thread failed/);
    await start.stop();
  }, 300_000);

  it('leaves the packages that only some requests or settings need until their first use', async () => {
    await start.run();
    // Pictures (sharp and libvips), Chinese names, PostgreSQL, Redis, mail, Web Push, backups, media
    // probing and announcements: none is imported by the bundle at start, so a fresh server stays small.
    const lazy = [
      'sharp',
      'pinyin-pro',
      'pg',
      'ioredis',
      'nodemailer',
      'web-push',
      'tar',
      'music-metadata',
      'file-type',
      'sanitize-html',
      'archiver',
    ];
    const dist = path.dirname(bundle);
    const imported = new Set<string>();
    for (const file of fs.readdirSync(dist).filter((f) => f.endsWith('.js'))) {
      // The bundle is minified: a static import may follow other code on its line (`}import a from"b";`).
      for (const m of fs
        .readFileSync(path.join(dist, file), 'utf8')
        .matchAll(/(?:^|[;}\n])import\s*[\w$*{},\s]*?\bfrom\s*"([^"]+)"/g))
        imported.add(m[1]!);
    }
    // Native addons load from node_modules; the packages every start needs are in the bundle.
    expect(imported).toContain('better-sqlite3');
    expect(imported).not.toContain('fastify');
    // Bundled, a lazy package's code would load with the rest: each stays outside, and is not imported.
    const { externalPackages } = (await import(path.join(root, 'scripts/build-server.mjs'))) as {
      externalPackages: string[];
    };
    for (const name of lazy) {
      expect(externalPackages).toContain(name);
      expect(imported).not.toContain(name);
    }
    const maps = fs.readFileSync(`/proc/${start.serverPid()}/maps`, 'utf8');
    expect(maps).toContain(process.execPath);
    expect(maps).not.toMatch(/libvips|sharp-/);
    await start.stop();
  }, 300_000);

  it('does not build again when the bundle is newer than the sources, and does when it is older', async () => {
    const built = fs.statSync(bundle).mtimeMs;
    await start.run();
    expect(start.output.join('')).not.toContain('Building the server');
    expect(fs.statSync(bundle).mtimeMs).toBe(built);
    expect((await start.get('/healthz')).status).toBe(200);
    await start.stop();

    const longAgo = new Date('2000-01-01T00:00:00Z');
    fs.utimesSync(bundle, longAgo, longAgo);
    await start.run();
    expect(start.output.join('')).toContain('Building the server');
    expect(fs.statSync(bundle).mtimeMs).toBeGreaterThan(longAgo.getTime());
    await start.stop();
  }, 300_000);
});
