import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import * as tar from 'tar';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb, signUp, startServer, type TestServer } from './harness';

const adminMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/admin.ts');
const STORAGE_URL = 's3://AKID:topsecret@sparrow-uploads/team?endpoint=http%3A%2F%2F127.0.0.1%3A9000&forcePathStyle=1';

/** `npm run admin -- …` with the uploads in a bucket, in a process of its own. */
function admin(env: { dataDir: string; databaseUrl?: string | undefined }, ...args: string[]) {
  return new Promise<{ status: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', adminMain, ...args], {
      env: { ...process.env, DATA_DIR: env.dataDir, DATABASE_URL: env.databaseUrl ?? '', STORAGE_URL },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.on('close', (status) => resolve({ status, out }));
  });
}

describeEachDb('backup with the uploads in a bucket', (target) => {
  let server: TestServer;
  let work: string;
  beforeAll(async () => {
    server = await startServer(target);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-backup-bucket-'));
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('archives the database alone, names the bucket without its secret, and says so on backup and restore', async () => {
    const ann = await signUp(server, `ann_bb_${target}`);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    expect((await server.upload('uploadFile', { name: 'p.png', bytes: png }, { token: ann.token })).json.code).toBe(0);
    // A folder of uploads left from before the bucket is not what the server serves: it stays out.
    expect(fs.readdirSync(path.join(server.dataDir, 'uploads')).length).toBeGreaterThan(0);

    const file = path.join(work, 'bucket.tar.gz');
    const made = await admin({ dataDir: server.dataDir, databaseUrl: server.ctx.env.databaseUrl }, 'backup', file);
    expect(made.status).toBe(0);
    expect(made.out).toContain('no uploaded files: they are in the bucket s3://sparrow-uploads/team/');
    expect(made.out).toMatch(/copy or version that bucket/);
    expect(made.out).not.toContain('topsecret');
    const entries: string[] = [];
    await tar.list({ file, onReadEntry: (e) => entries.push(e.path) });
    expect(entries.sort()).toEqual(
      target === 'sqlite' ? ['sparrow-backup.json', 'sparrow.db'] : ['sparrow-backup.json'],
    );
    if (target === 'postgres') expect(made.out).toMatch(/holds neither it nor the uploads/);

    const into = path.join(work, 'restored');
    const back = await admin({ dataDir: into }, 'restore', file);
    expect(back.status).toBe(0);
    expect(back.out).toMatch(/they are in the bucket s3:\/\/sparrow-uploads\/team\/ at http:\/\/127\.0\.0\.1:9000/);
    expect(back.out).toMatch(/start the server with the same STORAGE_URL/);
    expect(back.out).not.toContain('topsecret');
    expect(fs.existsSync(path.join(into, 'uploads'))).toBe(false);
    // Two runs of the operator command, each a process that starts TypeScript.
  }, 90_000);
});
