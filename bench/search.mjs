// Message search (issue 21): searchMessage's query over 1 000 000 seeded messages on SQLite (FTS5
// trigram) and (when reachable) PostgreSQL (pg_trgm GIN), p50/p99 beside LIKE over the same data,
// and the index's cost on a send (CPU per message with and without it). Goals: p99 ≤ 50 ms and
// ≤ 15 % more CPU per send. The work is in search-db.mjs, run under tsx once per database;
// SEARCH_MESSAGES seeds another number of messages.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { main, root } from './lib.mjs';

await main('search', async () => {
  for (const target of ['sqlite', 'postgres']) {
    console.log(`\n### ${target}`);
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'search-db.mjs'), target], {
      cwd: root,
      env: process.env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const code = await new Promise((r) => child.on('exit', r));
    if (code !== 0) throw new Error(`${target} run ended with code ${code}`);
  }
});
