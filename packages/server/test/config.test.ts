import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminService } from '../src/modules/admin';
import { ConfigService } from '../src/modules/system/config-service';
import { describeEachDb, expectBadBodies, logIn, signUp, startServer, TestSocket, type TestServer } from './harness';

const STUN = [
  { urls: 'turn:turn.example.com:3478', username: 'sparrow', credential: 's3cret-turn-pass' },
  { urls: ['stun:stun.example.com:3478', 'stun:stun2.example.com'] },
];

describeEachDb('system configuration: getSystemInfo, checkVersion, updateConfig', (target) => {
  let server: TestServer;
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    server = await startServer(target, { env: { configPollMs: 50 } });
    user = await signUp(server, 'config_user');
  });
  afterAll(async () => {
    await server.close();
  });

  describe('getSystemInfo', () => {
    it('answers the defaults of docs/protocol.md §2, and nothing internal', async () => {
      const res = await server.call('getSystemInfo', {}, { lang: null });
      expect(res.code).toBe(0);
      expect(res.data.sysInfo).toEqual({
        name: 'Sparrow',
        logo: '/static/img/logo.png',
        diyName: 1,
        regauth: 0,
        regtype: 1,
        runMode: 2,
        ipregion: 0,
        multipleLogin: 1,
        registerInterval: 0,
      });
      expect(res.data.chatInfo).toEqual({
        online: 1,
        webrtc: 1,
        dbDelMsg: 1,
        redoTime: 86400,
        editTime: 86400,
        groupChat: 1,
        simpleChat: 1,
        groupUserMax: 0,
        sendInterval: 0,
        messageDays: 0,
        fileDays: 0,
        stun: [],
      });
      expect(res.data.fileUpload).toMatchObject({ size: 50, emojiSize: 2 });
      expect(res.data.fileUpload.fileExt).toEqual(expect.arrayContaining(['jpg', 'png', 'gif', 'mp4', 'pdf', 'zip']));
      expect(res.data.compass).toEqual({
        status: 1,
        mode: 1,
        list: [{ icon: '/static/img/moments.png', name: '朋友圈', type: 1, url: '/pages/compass/moments' }],
      });
      expect(res.data.demon_mode).toBe(0);
      expect(res.data.map).toEqual({
        tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
        attribution: '© OpenStreetMap contributors',
        searchUrl: 'https://nominatim.openstreetmap.org/search',
      });
      expect(Object.keys(res.data).sort()).toEqual([
        'chatInfo',
        'compass',
        'demon_mode',
        'fileUpload',
        'map',
        'sysInfo',
      ]);
      const secret = (
        await server.ctx.db.selectFrom('config').select('value').where('key', '=', '_secret').executeTakeFirstOrThrow()
      ).value;
      expect(JSON.stringify(res)).not.toContain(secret);
      expect(JSON.stringify(res)).not.toContain('rateLimits');
    });

    it('gives ICE credentials only to a signed-in caller', async () => {
      await server.ctx.config.set('chatInfo.stun', JSON.stringify(STUN));
      const anonymous = await server.call('getSystemInfo');
      expect(anonymous.data.chatInfo.stun).toEqual([{ urls: STUN[0]!.urls }, { urls: STUN[1]!.urls }]);
      expect(JSON.stringify(anonymous)).not.toContain('s3cret-turn-pass');
      const signedIn = await server.call('getSystemInfo', {}, { token: user.token });
      expect(signedIn.data.chatInfo.stun).toEqual(STUN);
      const stale = await logIn(server, 'config_user', user.password);
      await server.call('logout', {}, { token: stale });
      const revoked = await server.call('getSystemInfo', {}, { token: stale });
      expect(revoked.code).toBe(0);
      expect(JSON.stringify(revoked)).not.toContain('s3cret-turn-pass');
    });

    it('reflects a change at once, and keeps it in the database', async () => {
      await server.ctx.config.set('sysInfo.name', 'Sparrow Test');
      await server.ctx.config.set('chatInfo.redoTime', '600');
      const res = await server.call('getSystemInfo');
      expect(res.data.sysInfo.name).toBe('Sparrow Test');
      expect(res.data.chatInfo.redoTime).toBe(600);
      const fresh = new ConfigService(server.ctx.repos.config);
      await fresh.load();
      expect(fresh.get().sysInfo.name).toBe('Sparrow Test');
      expect(fresh.get().chatInfo.redoTime).toBe(600);
      expect(fresh.get().chatInfo.stun).toEqual(STUN);
    });

    it('refuses an unknown setting or a value of the wrong type', async () => {
      await expect(server.ctx.config.set('sysInfo.nope', '1')).rejects.toThrow(/no such setting/);
      await expect(server.ctx.config.set('nowhere.redoTime', '1')).rejects.toThrow(/unknown configuration section/);
      await expect(server.ctx.config.set('chatInfo.redoTime', 'soon')).rejects.toThrow(/number/);
      await expect(server.ctx.config.set('chatInfo.stun', '{"urls":"x"}')).rejects.toThrow(/array/);
      expect((await server.call('getSystemInfo')).data.chatInfo.redoTime).toBe(600);
    });
  });

  describe('updateConfig', () => {
    it('is pushed to every bound socket when the configuration changes here', async () => {
      const other = await signUp(server, 'config_other');
      const a = await TestSocket.bound(server, user.userId, user.token);
      const b = await TestSocket.bound(server, other.userId, other.token);
      await server.ctx.config.set('chatInfo.sendInterval', '3');
      for (const sock of [a, b]) {
        const frame = await sock.waitFor((f) => f.type === 'updateConfig' && f.data.chatInfo.sendInterval === 3);
        expect(frame.data.sysInfo.name).toBe('Sparrow Test');
        expect(frame.data.rateLimits).toBeUndefined();
      }
      a.close();
      b.close();
    });

    it('is pushed when another process (the admin command) changes it', async () => {
      const sock = await TestSocket.bound(server, user.userId, user.token);
      const elsewhere = new ConfigService(server.ctx.repos.config);
      await elsewhere.load();
      await new AdminService(server.ctx.repos, elsewhere).site.setConfig('chatInfo.groupUserMax', '200');
      const frame = await sock.waitFor((f) => f.type === 'updateConfig' && f.data.chatInfo.groupUserMax === 200, 3000);
      expect(frame.data.chatInfo.sendInterval).toBe(3);
      expect((await server.call('getSystemInfo')).data.chatInfo.groupUserMax).toBe(200);
      sock.close();
    });
  });

  describe('checkVersion', () => {
    it('says a current or newer release is up to date', async () => {
      const res = await server.call('checkVersion', { release: '6.2.0' }, { lang: null });
      expect(res).toEqual({
        code: 0,
        msg: '',
        data: {
          versionName: '6.2.0',
          versionCode: 20261130,
          updateType: 'solicit',
          versionInfo: '已是最新版本',
          downloadUrl: '',
        },
      });
      expect((await server.call('checkVersion', { release: '6.2' })).data.downloadUrl).toBe('');
      expect((await server.call('checkVersion', { release: '6.2.1' })).data.downloadUrl).toBe('');
      expect((await server.call('checkVersion', { release: '10.0.0' })).data.downloadUrl).toBe('');
    });

    it('offers the update to an older or unknown release', async () => {
      // 6.1.0: a client cached before the server moved to 6.2.0 is asked to reload.
      for (const release of ['6.1.0', '6.1.9', '6.0.9', '5.9', '6.0', '']) {
        const res = await server.call('checkVersion', { release }, { lang: 'en' });
        expect(res.data, release).toMatchObject({
          versionName: '6.2.0',
          versionInfo: 'Version 6.2.0 is available; reload the page to update',
        });
        expect(res.data.downloadUrl, release).toMatch(/^https?:\/\/.+\/$/);
      }
      expect((await server.call('checkVersion', {}, { lang: 'fr' })).data.downloadUrl).not.toBe('');
    });

    it('refuses a bad body', async () => {
      await expectBadBodies(server, 'checkVersion', { release: '6.2.0' }, [
        { field: 'release', value: '6'.repeat(33), key: 'validation.tooLong', params: { max: 32 } },
        { field: 'release', value: { v: 6 }, key: 'validation.invalid' },
        { field: 'release', value: 6.1, key: 'validation.invalid' },
        { field: 'release', value: -1, key: 'validation.invalid' },
      ]);
    });
  });
});
