// Keyword rules (issue 39 point 6, 敏感词): what a 10 000-word list adds to a send, and the matcher
// alone. The work is in keywords-run.mjs, run under tsx (the server is built in that process from
// its source). Goal: under 1 ms added per send.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { main, root } from './lib.mjs';

await main('keywords', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'keywords-run.mjs')], {
    cwd: root,
    env: process.env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`the run ended with code ${code}`);
});
