// Group read receipts (issue 41 point 1): in a 2 000-member group, the server time to answer "who
// read message X" (groupReadList) and the counts of a page of 50 messages (groupReadCounts), and the
// cost of one setMsgIsRead with the receipts' work (the senders it passed found, a `readReceipt`
// pushed to them) beside the same read with the group's receipts off, in the same rounds. The work
// is in read-receipts-db.mjs, run under tsx once per database.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { main, root } from './lib.mjs';

await main('read-receipts', async () => {
  for (const target of ['sqlite', 'postgres']) {
    console.log(`\n### ${target}`);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'bench', 'read-receipts-db.mjs'), target],
      { cwd: root, env: process.env, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    const code = await new Promise((r) => child.on('exit', r));
    if (code !== 0) throw new Error(`${target} run ended with code ${code}`);
  }
});
