// `npm run test:quick`: the edit-run loop. Unit suites and the SQLite integration suites, leaving out
// those that start other processes (the command line, a compiled server, a second node), walk every
// route or role with generated input, hold load for seconds, or build the web client: `npm test`
// runs those, on both databases.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The integration suites `npm test` alone runs, and why each is long. */
const LONG = [
  'bad-input', // every route with input generated from its schema
  'start', // builds and starts the compiled server
  'faults', // kills database connections and Redis under load
  'admin', // the command line, a process per call
  'announce', // the command line
  'departments', // the command line
  'backup', // backup and restore, a process per step
  'backup-bucket', // the same against an S3 bucket
  'resources', // holds connections and uploads to their limits
  'socket', // waits out heartbeat and bind time-outs
  'concurrency', // fires every race K times, over two nodes on PostgreSQL
  'checkpointer', // waits for SQLite checkpoints
  'login-abuse', // the lockout windows
  'raingad-compat', // the old clients' sessions, walked whole
  'permissions', // the permission matrix of every route that takes an id
  'group-permissions', // the same for every group route and role
];

const env = { ...process.env };
delete env.DATABASE_URL;
delete env.REDIS_URL;
const started = Date.now();
const res = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    ...LONG.flatMap((name) => ['--exclude', `**/test/${name}.test.ts`]),
    // A production build of the web client and its size budget.
    '--exclude',
    '**/bundle-budget.test.ts',
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', env },
);
console.log(`test:quick: ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(res.status ?? 1);
