// Moments feed (issue 20): a feed page and a publish on 1 000 users with 200 friends each, at 10 000
// and 100 000 posts, on SQLite and (when reachable) PostgreSQL, each beside a baseline query of the
// same run and beside the former fan-out on read. Goal: a feed page within 2× of the baseline's CPU
// at either size. The work is in moments-feed-db.mjs, run under tsx once per database.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { main, root } from './lib.mjs';

await main('moments-feed', async () => {
  for (const target of ['sqlite', 'postgres']) {
    console.log(`\n### ${target}`);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'bench', 'moments-feed-db.mjs'), target],
      {
        cwd: root,
        env: process.env,
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    const code = await new Promise((r) => child.on('exit', r));
    if (code !== 0) throw new Error(`${target} run ended with code ${code}`);
  }
});
