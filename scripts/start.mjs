// `npm start`: builds the web client when it is missing and the server when its bundle is missing or
// older than its sources, then runs the compiled server, which serves everything on one port.
import { spawn } from 'node:child_process';
import { ensureServerBuild, serverMain, serverNodeArgs } from './build-server.mjs';
import { ensureWebClient } from './web-client.mjs';

try {
  ensureWebClient();
  await ensureServerBuild();
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}

const server = spawn(process.execPath, [...serverNodeArgs, serverMain], {
  cwd: process.cwd(),
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
