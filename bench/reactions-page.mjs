// Reactions and edits on a busy group's page (issue 38, "Speed and scale"): getMessageList's server
// time for a page of 50 in a 2 000-member group where one message has 500 reactions and 20 edits,
// beside the page before it in the same rounds, and before the reactions and edits. Goal: within
// 1.25× of the page beside it. The work is in reactions-page-db.mjs, run under tsx once per database.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { main, root } from './lib.mjs';

await main('reactions-page', async () => {
  for (const target of ['sqlite', 'postgres']) {
    console.log(`\n### ${target}`);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'bench', 'reactions-page-db.mjs'), target],
      { cwd: root, env: process.env, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    const code = await new Promise((r) => child.on('exit', r));
    if (code !== 0) throw new Error(`${target} run ended with code ${code}`);
  }
});
