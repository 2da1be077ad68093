// `npm run dev`: the server with watch on :8000 and Vite with hot reload on :5173 (proxying to it).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', path.join(root, 'packages/server/src/main.ts')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, WEB_DIST: '' },
  }),
  spawn('npm', ['run', 'dev', '-w', '@sparrow/web'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children)
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
