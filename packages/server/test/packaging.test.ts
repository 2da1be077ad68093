/**
 * The packaging an operator installs from (Dockerfile, compose.yaml, deploy/systemd/sparrow.service)
 * and the release (CHANGELOG.md, the package versions) agree with the code they run: what can drift
 * when the code changes and the files do not.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { load } from 'js-yaml';
import { APP_VERSION, APP_VERSION_CODE } from '@sparrow/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { freePort } from './cluster';
import { startServer, type TestServer } from './harness';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface PackageJson {
  name: string;
  version: string;
  scripts?: Record<string, string>;
  workspaces?: string[];
}
const rootPackage = JSON.parse(read('package.json')) as PackageJson;
/** Each workspace's package.json by its name, and the root's by ''. */
const packages = new Map<string, PackageJson>([
  ['', rootPackage],
  ...(rootPackage.workspaces ?? []).map((dir): [string, PackageJson] => {
    const pkg = JSON.parse(read(`${dir}/package.json`)) as PackageJson;
    return [pkg.name, pkg];
  }),
]);

/** How `npm start` runs the bundle (scripts/build-server.mjs): its node arguments and file. */
const build = (await import(pathToFileURL(path.join(root, 'scripts/build-server.mjs')).href)) as {
  serverMain: string;
  serverNodeArgs: string[];
};
const bundle = path.relative(root, build.serverMain);

/** The environment variables loadConfig reads, recorded as it reads them. */
function configVariables(): Set<string> {
  const seen = new Set<string>();
  loadConfig(
    new Proxy({} as NodeJS.ProcessEnv, {
      get: (_env, name) => {
        if (typeof name === 'string') seen.add(name);
        return undefined;
      },
    }),
  );
  return seen;
}

// --- Dockerfile -------------------------------------------------------------------------------

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  name: string;
  instructions: Instruction[];
}

/** The Dockerfile's stages, each with its instructions (continued lines joined, comments left out). */
function dockerStages(text: string): Stage[] {
  const stages: Stage[] = [];
  const logical = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  for (const line of logical) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (keyword.toUpperCase() === 'FROM') {
      stages.push({ name: / AS (\S+)$/i.exec(args)?.[1] ?? String(stages.length), instructions: [] });
    }
    stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
  }
  return stages;
}

/** The values an instruction's exec form (a JSON array) names. */
const execForm = (args: string) => JSON.parse(args.slice(args.indexOf('['))) as string[];

/** `KEY=value` pairs of ENV instructions. */
function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const i of stage.instructions.filter((x) => x.keyword === 'ENV')) {
    for (const [, key, value] of i.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(\S+)/g)) env[key!] = value!;
  }
  return env;
}

const stages = dockerStages(read('Dockerfile'));
const runtime = stages.at(-1)!;
const runtimeEnv = envOf(runtime);
const last = (keyword: string) => runtime.instructions.filter((i) => i.keyword === keyword).at(-1);

// --- compose.yaml -----------------------------------------------------------------------------

interface ComposeService {
  build?: string;
  user?: string;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  command?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
interface Compose {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
  networks: { default: { ipam: { config: { subnet: string; gateway: string }[] } } };
}
const compose = load(read('compose.yaml')) as Compose;
const sparrow = compose.services.sparrow!;

/** What an operator's .env gives compose: `${NAME:?…}`, `${NAME:-default}` and `${NAME}` filled as compose fills them. */
const dotEnv: Record<string, string> = {
  POSTGRES_PASSWORD: 'pg-password',
  TURN_SECRET: 'turn-secret',
  PUBLIC_URL: 'https://chat.example.org',
  TURN_HOST: 'turn.example.org',
};
function interpolate(value: string): string {
  return value.replace(
    /\$\{([A-Z_][A-Z0-9_]*)(?:(:\?|:-)([^}]*))?\}/g,
    (_all, name: string, op?: string, arg?: string) => {
      const given = dotEnv[name];
      if (given !== undefined && given !== '') return given;
      if (op === ':-') return arg ?? '';
      throw new Error(`compose needs ${name} (${arg ?? 'no default'})`);
    },
  );
}
const sparrowEnv = Object.fromEntries(
  Object.entries(sparrow.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]),
);

// --- systemd ----------------------------------------------------------------------------------

/** A unit file's settings: every value of each key, in order (a key may repeat). */
function unitSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#') || line.startsWith('[')) continue;
    const eq = line.indexOf('=');
    const key = line.slice(0, eq);
    settings.set(key, [...(settings.get(key) ?? []), line.slice(eq + 1)]);
  }
  return settings;
}
const unit = unitSettings(read('deploy/systemd/sparrow.service'));
const one = (key: string) => {
  const values = unit.get(key) ?? [];
  expect(values, key).toHaveLength(1);
  return values[0]!;
};

/** A section of a Markdown document: from its heading to the next heading of the same level or higher. */
function section(doc: string, heading: string): string {
  const lines = doc.split('\n');
  const start = lines.findIndex((l) => /^#+ /.test(l) && l.replace(/^#+ /, '') === heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && /^#+/.exec(l)![0].length <= level);
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

describe('the release', () => {
  it('has one version: the root package.json, every workspace, the lock file, the code and the changelog', () => {
    expect(APP_VERSION).toBe(rootPackage.version);
    for (const [name, pkg] of packages) expect(pkg.version, name || 'root').toBe(APP_VERSION);
    // npm ci refuses a lock file whose workspaces disagree with their package.json.
    const lock = JSON.parse(read('package-lock.json')) as { version: string; packages: Record<string, PackageJson> };
    expect(lock.version).toBe(APP_VERSION);
    for (const dir of ['', ...(rootPackage.workspaces ?? [])])
      expect(lock.packages[dir]?.version, dir).toBe(APP_VERSION);

    // The newest entry of CHANGELOG.md is this release, and its date is the version code.
    const [newest, previous] = [
      ...read('CHANGELOG.md').matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4})-(\d{2})-(\d{2})$/gm),
    ];
    expect(newest?.[1]).toBe(APP_VERSION);
    expect(Number(newest!.slice(2).join(''))).toBe(APP_VERSION_CODE);
    expect(previous?.[1]).toBe('6.1.0');
  });
});

describe('Dockerfile', () => {
  it('builds with the npm scripts the repository has', () => {
    const runs = stages.flatMap((s) => s.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args));
    const scripts = runs.flatMap((r) => [...r.matchAll(/npm run (\S+)((?: -w| --workspace) (\S+))?/g)]);
    expect(scripts.map((m) => m[0])).toEqual(['npm run build', 'npm run build -w @sparrow/server']);
    for (const [, script, , workspace] of scripts) {
      expect(packages.get(workspace ?? '')?.scripts?.[script!], `${workspace ?? 'root'}: ${script}`).toBeDefined();
    }
    // Workspaces named to npm ci exist, and every workspace's manifest is copied before it.
    for (const [, workspace] of runs.join('\n').matchAll(/npm ci [^\n]*--workspace (\S+)/g)) {
      expect(packages.has(workspace!), workspace).toBe(true);
    }
    const manifests = stages.find((s) => s.name === 'manifests')!;
    const copied = manifests.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args.split(' ')[0]);
    for (const dir of rootPackage.workspaces ?? []) expect(copied).toContain(`${dir}/package.json`);
  });

  it('runs the bundle as npm start does, as a user who is not root, from where the build put it', () => {
    expect(execForm(last('CMD')!.args)).toEqual(['node', ...build.serverNodeArgs, bundle]);
    const user = last('USER')!.args;
    expect(['root', '0', '']).not.toContain(user.split(':')[0]);
    const copies = runtime.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    // The server finds the web client beside itself (config.ts `webDist`) and the bundle where it was built.
    expect(copies).toContain(`--from=build /app/${path.dirname(bundle)} ${path.dirname(bundle)}`);
    expect(copies).toContain('--from=build /app/packages/web/dist packages/web/dist');
    expect(last('WORKDIR')!.args).toBe('/app');
    // The data folder is a volume the user owns.
    expect(runtimeEnv.DATA_DIR).toBe('/data');
    expect(execForm(last('VOLUME')!.args)).toEqual([runtimeEnv.DATA_DIR]);
    const owned = runtime.instructions.find((i) => i.keyword === 'RUN' && i.args.includes('chown'))!.args;
    expect(owned).toContain(`chown ${user}:${user} ${runtimeEnv.DATA_DIR}`);
    // Every variable it sets is the server's or Node's.
    const known = configVariables();
    for (const name of Object.keys(runtimeEnv)) expect(name === 'NODE_ENV' || known.has(name), name).toBe(true);
  });

  it('listens on the port it exposes, the one config.ts defaults to', () => {
    expect(last('EXPOSE')!.args).toBe(String(loadConfig({}).port));
    expect(runtimeEnv.PORT).toBe(last('EXPOSE')!.args);
  });

  describe('its health check, run against a server', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer('sqlite');
    });
    afterAll(async () => {
      await server.close();
    });

    const healthcheck = async (port: string) => {
      const [command, ...args] = execForm(last('HEALTHCHECK')!.args);
      expect(command).toBe('node');
      return promisify(execFile)(process.execPath, args, { env: { ...process.env, PORT: port }, timeout: 10_000 }).then(
        () => 0,
        (err: { code?: number }) => err.code ?? -1,
      );
    };

    it('asks /readyz: 0 when the server is ready, 1 when nothing answers', async () => {
      const check = last('HEALTHCHECK')!.args;
      expect(check).toMatch(/^--interval=\S+ --timeout=\S+ --start-period=\S+ --retries=\d+ CMD \[/);
      expect(check).toContain("'/readyz'");
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect(await healthcheck(new URL(server.url).port)).toBe(0);
      expect(await healthcheck(String(await freePort()))).toBe(1);
    });

    it('reports the release in /healthz', async () => {
      expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok', version: APP_VERSION });
    });
  });
});

describe('compose.yaml', () => {
  it('sets only variables config.ts reads, to values it takes', () => {
    const known = configVariables();
    for (const name of Object.keys(sparrowEnv)) expect(known.has(name), name).toBe(true);
    const config = loadConfig(sparrowEnv);
    expect(config.port).toBe(Number(runtimeEnv.PORT));
    expect(config.dataDir).toBe(runtimeEnv.DATA_DIR);
    expect(config.publicUrl).toBe(dotEnv.PUBLIC_URL);
    expect(config.turnUrls).toEqual([
      'turn:turn.example.org:3478?transport=udp',
      'turn:turn.example.org:3478?transport=tcp',
    ]);
    expect(config.turnSecret).toBe(dotEnv.TURN_SECRET);
    // The proxy on the host reaches the container through the network's gateway.
    expect(config.trustProxy).toBe(compose.networks.default.ipam.config[0]!.gateway);
  });

  it('points the server at the services beside it, with their credentials', () => {
    const database = new URL(sparrowEnv.DATABASE_URL!);
    const postgres = compose.services[database.hostname]!;
    const pgEnv = Object.fromEntries(
      Object.entries(postgres.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]),
    );
    expect(database.protocol).toBe('postgres:');
    expect([database.username, database.password, database.pathname.slice(1)]).toEqual([
      pgEnv.POSTGRES_USER,
      pgEnv.POSTGRES_PASSWORD,
      pgEnv.POSTGRES_DB,
    ]);
    expect(compose.services[new URL(sparrowEnv.REDIS_URL!).hostname]).toBeDefined();
    // coturn shares the secret the server signs TURN credentials with, and the realm is the TURN host.
    const turn = compose.services.coturn!.command!.map(interpolate);
    expect(turn).toContain(`--static-auth-secret=${dotEnv.TURN_SECRET}`);
    expect(turn).toContain('--use-auth-secret');
    expect(turn).toContain(`--listening-port=${new URL(loadConfig(sparrowEnv).turnUrls[0]!).pathname.split(':')[1]}`);
  });

  it('starts the server once the database and Redis are healthy, built from this Dockerfile, ports and data agreeing', () => {
    expect(sparrow.build).toBe('.');
    expect(sparrow.user).toBeUndefined();
    for (const [name, { condition }] of Object.entries(sparrow.depends_on ?? {})) {
      const service = compose.services[name]!;
      if (condition === 'service_healthy') expect(service.healthcheck?.test[0], name).toBe('CMD');
    }
    expect(sparrow.depends_on).toMatchObject({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    // host:container, the container side the port the server listens on.
    expect(sparrow.ports!.map((p) => p.split(':').at(-1))).toEqual([sparrowEnv.PORT]);
    const [volume, target] = sparrow.volumes![0]!.split(':');
    expect(target).toBe(sparrowEnv.DATA_DIR);
    expect(compose.volumes).toHaveProperty(volume!);
  });
});

describe('deploy/systemd/sparrow.service', () => {
  it('runs the bundle as npm start does, from the checkout, with the environment file the documents name', () => {
    const dir = one('WorkingDirectory');
    expect(one('ExecStart')).toBe(['/usr/bin/node', ...build.serverNodeArgs, path.join(dir, bundle)].join(' '));
    const envFile = one('EnvironmentFile').replace(/^-/, '');
    const readme = section(read('README.md'), 'Packages');
    const systemd = section(read('docs/operations.md'), 'systemd');
    for (const doc of [readme, systemd]) {
      expect(doc).toContain('deploy/systemd/sparrow.service');
      expect(doc).toContain(envFile);
    }
    // What the documented installation builds is what ExecStart runs, in the same place.
    expect(systemd).toContain(dir);
    expect(systemd).toContain('npm run build -w @sparrow/server');
    expect(read('deploy/systemd/sparrow.service')).toContain(envFile);
  });

  it('writes only its data folder, as a user of its own, with the hardening options', () => {
    expect(['root', '0']).not.toContain(one('User'));
    const dataDir = `/var/lib/${one('StateDirectory')}`;
    expect(unit.get('Environment')).toContain(`DATA_DIR=${dataDir}`);
    expect(one('ReadWritePaths')).toBe(dataDir);
    for (const [key, value] of [
      ['NoNewPrivileges', 'yes'],
      ['ProtectSystem', 'strict'],
      ['ProtectHome', 'yes'],
      ['PrivateTmp', 'yes'],
      ['CapabilityBoundingSet', ''],
      ['Restart', 'on-failure'],
    ])
      expect(one(key!), key).toBe(value);
    expect(unit.get('SystemCallFilter')).toContain('@system-service');
    expect(one('RestrictAddressFamilies').split(' ')).toEqual(
      expect.arrayContaining(['AF_INET', 'AF_INET6', 'AF_UNIX']),
    );
    // V8 makes memory writable and then executable as it compiles: the option would stop Node at start.
    expect(unit.has('MemoryDenyWriteExecute')).toBe(false);
  });
});

describe('README', () => {
  it('says how the container files were checked', () => {
    expect(section(read('README.md'), 'Packages')).toMatch(/built and run in CI|written and checked by/);
  });
});
