import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb, signUp, startServer, TestSocket, type TestServer } from './harness';

const adminMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/admin.ts');

describeEachDb('system announcements', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target, { env: { configPollMs: 100 } });
  });
  afterAll(async () => {
    await server.close();
  });

  /** Runs `npm run admin -- …` against this server's database, as an operator would. */
  function admin(...args: string[]) {
    const res = spawnSync(process.execPath, ['--import', 'tsx', adminMain, ...args], {
      env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: server.ctx.env.databaseUrl ?? '' },
      encoding: 'utf8',
    });
    return { status: res.status, out: `${res.stdout}${res.stderr}` };
  }

  it('publishes an announcement from the admin command to every signed-in socket', async () => {
    const u = await signUp(server, 'notice_reader');
    const sock = await TestSocket.bound(server, u.userId, u.token);
    const before = (await server.call('getContacts', {}, { token: u.token })).data.find(
      (c: any) => c.id === 'admin_notice',
    );
    expect(before).toMatchObject({ unread: 0, lastContent: '', displayName: 'Announcements' });

    const run = admin('announce', 'Maintenance tonight', 'The server restarts at 23:00.');
    expect(run.status, run.out).toBe(0);
    const pushed = await sock.waitFor((f) => f.type === 'adminNotice', 5000);
    expect(pushed.data).toMatchObject({ title: 'Maintenance tonight', notice: 'The server restarts at 23:00.' });

    expect((await server.call('getAdminNotice', {}, { token: u.token })).data).toMatchObject({
      title: 'Maintenance tonight',
    });
    const row = (await server.call('getContacts', {}, { token: u.token })).data.find(
      (c: any) => c.id === 'admin_notice',
    );
    expect(row).toMatchObject({ unread: 1, lastContent: 'Maintenance tonight' });
    await server.call('setMsgIsRead', { toContactId: 'admin_notice', is_group: 2 }, { token: u.token });
    expect(
      (await server.call('getContacts', {}, { token: u.token })).data.find((c: any) => c.id === 'admin_notice').unread,
    ).toBe(0);

    expect(admin('announce', 'only a title').status).toBe(1);
    sock.close();
  });
});
