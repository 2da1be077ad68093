import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import sharp from 'sharp';
import * as tar from 'tar';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb, signUp, startServer, type TestServer } from './harness';

const adminMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/admin.ts');

/** Runs `npm run admin -- …` as an operator would, in a process of its own, without blocking this one. */
function admin(env: { dataDir: string; databaseUrl?: string | undefined }, ...args: string[]) {
  return new Promise<{ status: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', adminMain, ...args], {
      env: { ...process.env, DATA_DIR: env.dataDir, DATABASE_URL: env.databaseUrl ?? '' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.on('close', (status) => resolve({ status, out }));
  });
}

const image = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .png()
    .toBuffer();

describeEachDb('backup and restore', (target) => {
  let server: TestServer;
  let work: string;
  beforeAll(async () => {
    server = await startServer(target);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-backup-test-'));
    for (const [k, v] of [
      ['chatInfo.sendInterval', '0'],
      ['rateLimits.anyCall.perMinute', '10000000'],
      ['rateLimits.sendMessage.burst', '10000000'],
      ['rateLimits.sendMessage.perSecond', '10000000'],
    ] as const)
      await server.ctx.config.set(k, v);
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('takes a consistent copy while messages are being sent, which a new server starts from', async () => {
    const ann = await signUp(server, `ann_bk_${target}`);
    const bob = await signUp(server, `bob_bk_${target}`);
    await server.call('friendAdd', { user_id: bob.userId }, { token: ann.token });
    await server.call('friendAdd', { user_id: ann.userId }, { token: bob.token });
    const png = await image();
    const uploaded = await server.upload('uploadFile', { name: 'photo.png', bytes: png }, { token: ann.token });
    expect(uploaded.json.code).toBe(0);

    // A stream of sends, a few at a time, each remembered once the server acknowledged it.
    const acknowledged: string[] = [];
    let streaming = true;
    const sender = async () => {
      while (streaming) {
        const id = randomUUID();
        const res = await server.call(
          'sendMessage',
          { id, toContactId: bob.userId, type: 'text', content: `message ${id}` },
          { token: ann.token },
        );
        expect(res.code, res.msg).toBe(0);
        acknowledged.push(id);
      }
    };
    const senders = [sender(), sender(), sender()];
    while (acknowledged.length < 50) await new Promise((r) => setTimeout(r, 10));

    const archive = path.join(work, 'sparrow.tar.gz');
    const before = acknowledged.length;
    const ackedBefore = acknowledged.slice();
    const run = await admin({ dataDir: server.dataDir, databaseUrl: server.ctx.env.databaseUrl }, 'backup', archive);
    const during = acknowledged.length - before;
    streaming = false;
    await Promise.all(senders);
    expect(run.status, run.out).toBe(0);
    expect(during, 'sends went on while the backup ran').toBeGreaterThan(0);

    const listed: string[] = [];
    await tar.list({ file: archive, onReadEntry: (e) => listed.push(e.path) });
    expect(listed).toContain('sparrow-backup.json');
    expect(listed.some((p) => p.startsWith('uploads/') && p.endsWith('.png'))).toBe(true);

    // Restore refuses a folder that holds anything.
    const used = path.join(work, 'used');
    fs.mkdirSync(used);
    fs.writeFileSync(path.join(used, 'keep.txt'), 'mine');
    const refused = await admin({ dataDir: used }, 'restore', archive);
    expect(refused.status).toBe(1);
    expect(refused.out).toMatch(/not empty/);
    expect(fs.readdirSync(used)).toEqual(['keep.txt']);

    const fresh = path.join(work, 'restored');
    const restored = await admin({ dataDir: fresh }, 'restore', archive);
    expect(restored.status, restored.out).toBe(0);

    if (target === 'sqlite') {
      expect(run.out).toMatch(/database integrity: ok/);
      expect(listed).toContain('sparrow.db');
      const db = new SQLite(path.join(fresh, 'sparrow.db'), { readonly: true });
      expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      db.close();
      // A server started on the restored folder has every message acknowledged before the backup began.
      const copy = await startServer('sqlite', { env: { dataDir: fresh } });
      try {
        const missing: string[] = [];
        for (const id of ackedBefore) if (!(await copy.ctx.repos.messages.bySender(ann.userId, id))) missing.push(id);
        expect(missing).toEqual([]);
        const list = await copy.call('getMessageList', { toContactId: bob.userId, limit: 20 }, { token: ann.token });
        expect(list.code).toBe(0);
        expect(list.count).toBeGreaterThanOrEqual(ackedBefore.length);
        const file = await copy.get(uploaded.json.data.src);
        expect(file.status).toBe(200);
        expect(file.body.equals(png)).toBe(true);
      } finally {
        await copy.close();
      }
    } else {
      // PostgreSQL: the database is the operator's to dump; the archive carries the uploads.
      expect(run.out).toMatch(/pg_dump --format=custom/);
      expect(listed).not.toContain('sparrow.db');
      expect(restored.out).toMatch(/pg_restore/);
      const key = new URL(uploaded.json.data.src, server.url).pathname.replace(/^\/storage\//, '');
      expect(fs.readFileSync(path.join(fresh, 'uploads', key)).equals(png)).toBe(true);
    }
    // Two runs of the operator command (each a process that starts TypeScript) and a server start:
    // beside the whole suite on two cores, more than the default 20 s.
  }, 90_000);

  it('refuses to overwrite an archive, and to restore what is not a backup', async () => {
    const existing = path.join(work, 'exists.tar.gz');
    fs.writeFileSync(existing, 'not mine to replace');
    const again = await admin({ dataDir: server.dataDir, databaseUrl: server.ctx.env.databaseUrl }, 'backup', existing);
    expect(again.status).toBe(1);
    expect(again.out).toMatch(/exists already/);
    expect(fs.readFileSync(existing, 'utf8')).toBe('not mine to replace');

    const other = path.join(work, 'other.tar.gz');
    const dir = fs.mkdtempSync(path.join(work, 'other-'));
    fs.writeFileSync(path.join(dir, 'sparrow.db'), 'x');
    await tar.create({ gzip: true, file: other, cwd: dir }, ['sparrow.db']);
    const res = await admin({ dataDir: path.join(work, 'never') }, 'restore', other);
    expect(res.status).toBe(1);
    expect(res.out).toMatch(/not a Sparrow backup/);
    expect(fs.existsSync(path.join(work, 'never'))).toBe(false);
  });
});
