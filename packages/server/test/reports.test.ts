import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { ErrorCodes, translate, type ManagedReportDetail } from '@sparrow/protocol';
import { expect, it } from 'vitest';
import { AdminService } from '../src/modules/admin';
import { ReportQueue } from '../src/modules/report/queue';
import {
  callAs,
  describeEachDb,
  makeFriends,
  makeGroup,
  serverForSuite,
  signUp,
  TestSocket,
  type TestServer,
  type TestUser,
} from './harness';

const adminMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/admin.ts');
const TAKEN_DOWN = translate('en', 'event.takedown');

let k = 0;

describeEachDb('reports (投诉) and the report queue', (target) => {
  let server!: TestServer;
  const { answer, ok: call, text } = serverForSuite(target, (s) => (server = s), { 'chatInfo.sendInterval': '0' });

  /** Alice and Bob, friends; Carl, a stranger to both; Root, an admin. */
  async function cast() {
    const n = ++k;
    const alice = await signUp(server, `alice${n}rep`);
    const bob = await signUp(server, `bob${n}rep`);
    const carl = await signUp(server, `carl${n}rep`);
    const root = await signUp(server, `root${n}rep`);
    await new AdminService(server.ctx.repos, server.ctx.config, server.clock.now).users.setRole(root.account, 'admin');
    await makeFriends(server, alice, bob);
    return { alice, bob, carl, root };
  }

  const refused = (res: { code: number; msg: string }, name: keyof typeof ErrorCodes) =>
    expect({ code: res.code, msg: res.msg }).toEqual({
      code: ErrorCodes[name],
      msg: translate('en', `errors.${name}`),
    });

  async function picture(who: TestUser): Promise<number> {
    const bytes = await sharp({
      create: { width: 12, height: 9, channels: 3, background: { r: ++k % 256, g: 3, b: 9 } },
    })
      .png()
      .toBuffer();
    const up = await server.upload('uploadFile', { name: `p${k}.png`, bytes }, { token: who.token });
    expect(up.json.code, up.json.msg).toBe(0);
    return up.json.data.file_id as number;
  }

  it('files a report of a message with those around it as the reporter saw them, once while open', async () => {
    const { alice, bob, carl, root } = await cast();
    const sent = [];
    for (let i = 0; i < 8; i++) sent.push(await text(i % 2 ? bob : alice, i % 2 ? alice : bob, `line ${i}`));
    const reported = sent[4];
    const pic = await picture(bob);
    const body = { kind: 'message', id: reported.msg_id, reason: 'harassment', text: '一直骚扰我', file_ids: [pic] };
    const first = await call('report', body, bob);
    expect(first).toMatchObject({ status: 'new' });
    // A retry (or a second tap) while the first is open answers the first.
    expect((await call('report', body, bob)).id).toBe(first.id);
    // Carl cannot see the message: answered exactly as a message that does not exist.
    const hidden = await answer('report', body, carl);
    const missing = await answer('report', { ...body, id: 999_999_999 }, carl);
    refused(hidden, 'MessageNotFound');
    expect(hidden).toEqual(missing);
    // Alice cannot report her own message.
    refused(await answer('report', body, alice), 'ReportSelf');

    const queue = await call('manageReportList', { status: 'new' }, root);
    expect(queue.find((r: { id: number }) => r.id === first.id)).toMatchObject({
      kind: 'message',
      target_id: reported.msg_id,
      reason: 'harassment',
      text: '一直骚扰我',
      reporter: { user_id: bob.userId },
      target_user: { user_id: alice.userId },
      status: 'new',
    });
    const opened = (await call('manageReportGet', { id: first.id }, root)) as ManagedReportDetail;
    expect(opened).toMatchObject({ status: 'review', handler_id: root.userId });
    expect(opened.pictures.map((p) => p.file_id)).toEqual([pic]);
    if (opened.evidence.kind !== 'message') throw new Error('a message report keeps messages');
    expect(opened.evidence.msg_id).toBe(reported.msg_id);
    // The eight lines, and before them what the chat held earlier (the greeting of a new friendship).
    const seen = opened.evidence.messages.map((m) => m.content);
    expect(seen.slice(-8)).toEqual(sent.map((_, i) => `line ${i}`));
    expect(seen.length).toBeLessThanOrEqual(11);
    // No longer new: in review.
    const stillNew = await call('manageReportList', { status: 'new' }, root);
    expect(stillNew.some((r: { id: number }) => r.id === first.id)).toBe(false);
    expect((await call('reportMine', {}, bob))[0]).toMatchObject({ id: first.id, status: 'review', warned: false });
  });

  it('reports a user, a group and a post; a group the caller is not in reads as not found', async () => {
    const { alice, bob, carl, root } = await cast();
    await makeFriends(server, alice, carl);
    const gid = await makeGroup(server, alice, [bob, carl]);
    const post = await call('momentsPublish', { id: randomUUID(), content: '买一送一', visibility: 1 }, alice);
    const user = await call('report', { kind: 'user', id: alice.userId, reason: 'fraud' }, bob);
    const group = await call('report', { kind: 'group', id: gid, reason: 'spam' }, bob);
    const moment = await call('report', { kind: 'moment', id: post.id, reason: 'rumor' }, carl);
    const outsider = await signUp(server, `out${k}rep`);
    refused(await answer('report', { kind: 'group', id: gid, reason: 'spam' }, outsider), 'NotMember');
    refused(await answer('report', { kind: 'moment', id: post.id, reason: 'spam' }, outsider), 'MomentNotFound');

    const detail = async (id: number) => (await call('manageReportGet', { id }, root)) as ManagedReportDetail;
    expect((await detail(user.id)).evidence).toMatchObject({ kind: 'user', user: { user_id: alice.userId } });
    expect((await detail(group.id)).evidence).toMatchObject({
      kind: 'group',
      group: { group_id: gid, member_count: 3 },
    });
    expect((await detail(moment.id)).evidence).toMatchObject({
      kind: 'moment',
      post: { id: post.id, user_id: alice.userId, content: '买一送一' },
    });
  });

  it('takes a message down for everyone: both sides read it as removed, live and from history; the reporter is told', async () => {
    const { alice, bob, root } = await cast();
    const before = await text(alice, bob, 'before');
    const bad = await text(alice, bob, '加我微信返现');
    const bobSocket = await TestSocket.bound(server, bob.userId, bob.token);
    const aliceSocket = await TestSocket.bound(server, alice.userId, alice.token);
    try {
      const filed = await call('report', { kind: 'message', id: bad.msg_id, reason: 'fraud' }, bob);
      // Not an action that fits a message.
      refused(await answer('manageReportAct', { id: filed.id, action: 'dissolve' }, root), 'ReportActionInvalid');
      const closed = await call('manageReportAct', { id: filed.id, action: 'takedown' }, root);
      expect(closed).toMatchObject({ status: 'closed', action: 'takedown', handler_id: root.userId });
      // Done once: a second action, by this admin or another, is refused.
      refused(await answer('manageReportAct', { id: filed.id, action: 'warn' }, root), 'ReportClosed');

      for (const [who, sock] of [
        [alice, aliceSocket],
        [bob, bobSocket],
      ] as const) {
        const undo = await sock.waitFor((f) => f.type === 'undoMessage' && f.data.msg_id === bad.msg_id);
        expect(undo.data).toMatchObject({ type: 'event', content: TAKEN_DOWN, extends: { event: 'takedown' } });
        const peer = who === alice ? bob.userId : alice.userId;
        const { data: page } = await server.call('getMessageList', { toContactId: peer }, callAs(who));
        const shown = page.find((m: { msg_id: number }) => m.msg_id === bad.msg_id);
        expect(shown).toMatchObject({ type: 'event', content: TAKEN_DOWN });
        expect(JSON.stringify(page)).not.toContain('加我微信返现');
        expect(page.find((m: { msg_id: number }) => m.msg_id === before.msg_id).content).toBe('before');
        const { data: synced } = await server.call('sync', { after_id: before.msg_id }, callAs(who));
        expect(synced.find((m: { msg_id: number }) => m.msg_id === bad.msg_id)).toMatchObject({ content: TAKEN_DOWN });
      }
      const notice = await bobSocket.waitFor((f) => f.type === 'simple' && f.data.fromUser.id === 'system');
      expect(notice.data).toMatchObject({
        type: 'event',
        content: translate('en', 'notice.reportActed', { kind: translate('en', 'report.kind.message') }),
        extends: { event: 'reportClosed', report_id: filed.id, action: 'takedown' },
      });
      expect((await call('reportMine', {}, bob))[0]).toMatchObject({
        id: filed.id,
        status: 'closed',
        action: 'takedown',
      });
      const audit = await call('manageAuditList', { action: 'reportTakedown' }, root);
      expect(audit[0]).toMatchObject({ admin_id: root.userId, target: `report:${filed.id}` });
      // A message taken down can no longer be reported.
      refused(await answer('report', { kind: 'message', id: bad.msg_id, reason: 'fraud' }, bob), 'MessageNotFound');
    } finally {
      bobSocket.close();
      aliceSocket.close();
    }
  });

  it('a message taken down reads as its line for a Raingad client too, its history and its socket alike', async () => {
    const { alice, bob, root } = await cast();
    const bad = await text(alice, bob, 'buy followers now');
    // An old client: a form body, no X-Sparrow-Client header, its socket bound over HTTP.
    const old = (path: string, data: Record<string, string | number>) =>
      server.post(
        path,
        new URLSearchParams(Object.entries(data).map(([k, v]): [string, string] => [k, String(v)])).toString(),
        {
          'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
          authorization: bob.token,
          'accept-language': 'zh-CN',
        },
      );
    const sock = await TestSocket.open(server);
    try {
      expect((await old('/common/Pub/bindUid', { client_id: sock.clientId, user_id: bob.userId })).json.code).toBe(0);
      const filed = await call('report', { kind: 'message', id: bad.msg_id, reason: 'spam' }, bob);
      await call('manageReportAct', { id: filed.id, action: 'takedown' }, root);
      const undo = await sock.waitFor((f) => f.type === 'undoMessage' && f.data.msg_id === bad.msg_id);
      expect(undo.data).toMatchObject({ id: bad.id, type: 'event', toContactId: alice.userId });
      const page = (await old('/enterprise/im/getMessageList', { toContactId: alice.userId, page: 1, limit: 20 })).json;
      expect(page.code, page.msg).toBe(0);
      const shown = page.data.find((m: { msg_id: number }) => m.msg_id === bad.msg_id);
      expect(shown).toMatchObject({ type: 'event', content: translate('zh-Hans', 'event.takedown') });
      expect(JSON.stringify(page.data)).not.toContain('buy followers now');
    } finally {
      sock.close();
    }
  });

  it('takes a post down: it is gone from the feed of everyone who saw it', async () => {
    const { alice, bob, root } = await cast();
    const post = await call('momentsPublish', { id: randomUUID(), content: 'fake news', visibility: 1 }, alice);
    expect((await call('momentsList', {}, bob)).map((p: { id: number }) => p.id)).toContain(post.id);
    const filed = await call('report', { kind: 'moment', id: post.id, reason: 'rumor' }, bob);
    await call('manageReportAct', { id: filed.id, action: 'takedown' }, root);
    expect((await call('momentsList', {}, bob)).map((p: { id: number }) => p.id)).not.toContain(post.id);
    expect((await call('momentsList', {}, alice)).map((p: { id: number }) => p.id)).not.toContain(post.id);
  });

  it('mutes a user across the server: sends, posts and comments refused with the time, then allowed', async () => {
    const { alice, bob, carl, root } = await cast();
    const gid = await makeGroup(server, bob, [alice, carl]);
    const post = await call('momentsPublish', { id: randomUUID(), content: 'mine', visibility: 1 }, bob);
    const filed = await call('report', { kind: 'user', id: alice.userId, reason: 'harassment' }, bob);
    // A mute needs its length.
    expect((await answer('manageReportAct', { id: filed.id, action: 'mute' }, root)).code).toBe(ErrorCodes.Validation);
    await call('manageReportAct', { id: filed.id, action: 'mute', minutes: 60 }, root);
    const send = (to: string | number) =>
      answer('sendMessage', { id: randomUUID(), toContactId: to, type: 'text', content: 'hi' }, alice);
    for (const res of [
      await send(bob.userId),
      await send(gid),
      await answer('momentsPublish', { id: randomUUID(), content: 'x', visibility: 1 }, alice),
      await answer('momentsComment', { id: post.id, content: 'x' }, alice),
    ]) {
      expect(res.code, res.msg).toBe(ErrorCodes.ServerMuted);
      expect(res.msg).toMatch(/^An administrator muted you until .+\d/);
    }
    // Others are not muted.
    expect(
      (await answer('sendMessage', { id: randomUUID(), toContactId: gid, type: 'text', content: 'ok' }, carl)).code,
    ).toBe(0);
    server.clock.advance(61 * 60_000);
    expect((await send(bob.userId)).code).toBe(0);
    expect((await send(gid)).code).toBe(0);
    expect((await answer('momentsComment', { id: post.id, content: 'ok' }, alice)).code).toBe(0);
    const audit = await call('manageAuditList', { action: 'reportMute' }, root);
    expect(audit[0]).toMatchObject({ target: `report:${filed.id}` });
  });

  it('warns the reported user with a notice in their language; dismissing tells the reporter nothing was found', async () => {
    const { alice, bob, root } = await cast();
    const bad = await text(alice, bob, 'spam spam');
    // Alice's client now speaks French: notices to her are written in it.
    await call('getContacts', {}, { ...alice, lang: 'fr' });
    const aliceSocket = await TestSocket.bound(server, alice.userId, alice.token);
    const bobSocket = await TestSocket.bound(server, bob.userId, bob.token);
    try {
      const filed = await call('report', { kind: 'message', id: bad.msg_id, reason: 'spam' }, bob);
      await call('manageReportAct', { id: filed.id, action: 'warn' }, root);
      const warning = await aliceSocket.waitFor(
        (f) => f.type === 'simple' && f.data.extends?.event === 'reportWarning',
      );
      expect(warning.data.content).toBe(
        translate('fr', 'notice.reportWarning', {
          kind: translate('fr', 'report.kind.message'),
          reason: translate('fr', 'report.reason.spam'),
        }),
      );
      expect(JSON.stringify(warning.data)).not.toContain(bob.account);
      expect((await call('reportMine', {}, { ...alice, lang: 'fr' }))[0]).toMatchObject({
        id: filed.id,
        warned: true,
        action: 'warn',
      });

      const other = await call('report', { kind: 'user', id: alice.userId, reason: 'other' }, bob);
      await call('manageReportAct', { id: other.id, action: 'dismiss' }, root);
      const dismissed = await bobSocket.waitFor(
        (f) => f.type === 'simple' && f.data.extends?.event === 'reportClosed' && f.data.extends.report_id === other.id,
      );
      expect(dismissed.data.content).toBe(
        translate('en', 'notice.reportDismissed', { kind: translate('en', 'report.kind.user') }),
      );
      // Closed: the same report may be made again, as a new one.
      const again = await call('report', { kind: 'user', id: alice.userId, reason: 'other' }, bob);
      expect(again.id).not.toBe(other.id);
    } finally {
      aliceSocket.close();
      bobSocket.close();
    }
  });

  it('disables a user and dissolves a group through the existing admin rules', async () => {
    const { alice, bob, carl, root } = await cast();
    const gid = await makeGroup(server, alice, [bob, carl]);
    const groupReport = await call('report', { kind: 'group', id: gid, reason: 'illegal' }, bob);
    refused(await answer('manageReportAct', { id: groupReport.id, action: 'takedown' }, root), 'ReportActionInvalid');
    await call('manageReportAct', { id: groupReport.id, action: 'dissolve' }, root);
    expect(
      (await answer('sendMessage', { id: randomUUID(), toContactId: gid, type: 'text', content: 'x' }, bob)).code,
    ).not.toBe(0);
    expect((await call('manageAuditList', { action: 'groupDisband' }, root))[0]).toMatchObject({ target: gid });

    const userReport = await call('report', { kind: 'user', id: alice.userId, reason: 'fraud' }, bob);
    await call('manageReportAct', { id: userReport.id, action: 'disable' }, root);
    expect((await server.call('checkuser', {}, callAs(alice))).code).toBe(-1);
    expect((await call('manageAuditList', { action: 'reportDisable' }, root))[0]).toMatchObject({
      target: `report:${userReport.id}`,
    });
  });

  it('keeps the queue to admins', async () => {
    const { bob, carl } = await cast();
    const filed = await call('report', { kind: 'user', id: carl.userId, reason: 'spam' }, bob);
    for (const [name, body] of [
      ['manageReportList', {}],
      ['manageReportGet', { id: filed.id }],
      ['manageReportAct', { id: filed.id, action: 'dismiss' }],
    ] as const)
      expect((await answer(name, body, bob)).code).toBe(403);
    expect((await call('reportMine', {}, bob))[0]).toMatchObject({ id: filed.id, status: 'new' });
  });

  it('lists and acts from the command line, through the same rules', async () => {
    const { alice, bob, root } = await cast();
    const filed = await call('report', { kind: 'user', id: alice.userId, reason: 'spam' }, bob);
    const admin = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', adminMain, ...args], {
        env: {
          ...process.env,
          DATA_DIR: server.dataDir,
          DATABASE_URL: server.ctx.env.databaseUrl ?? '',
        },
        encoding: 'utf8',
      });
    const listed = admin('report', 'list', 'new');
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(`^${filed.id}\\tnew\\t.*user ${alice.userId}\\tspam\\tby ${bob.account}`, 'm'),
    );
    const acted = admin('report', 'act', String(filed.id), 'mute', '1440');
    expect(acted.status, acted.stderr).toBe(0);
    expect(acted.stdout).toContain(`report ${filed.id} closed: mute`);
    const refusedAgain = admin('report', 'act', String(filed.id), 'dismiss');
    expect(refusedAgain.status).toBe(1);
    expect(refusedAgain.stderr).toContain(translate('en', 'errors.ReportClosed'));
    expect(
      (await answer('sendMessage', { id: randomUUID(), toContactId: bob.userId, type: 'text', content: 'x' }, alice))
        .code,
    ).toBe(ErrorCodes.ServerMuted);
    expect((await call('manageAuditList', { action: 'reportMute', admin_id: 0 }, root))[0]).toMatchObject({
      target: `report:${filed.id}`,
    });
  }, 120_000);

  it('reopens a report whose action failed with its own error, even when its reporter filed it again meanwhile', async () => {
    const { alice, bob, root } = await cast();
    const filed = await call('report', { kind: 'user', id: alice.userId, reason: 'spam' }, bob);
    const admin = new AdminService(server.ctx.repos, server.ctx.config, server.clock.now);
    let again: { id: number } | undefined;
    // While the action runs, the report is closed: the reporter files it again, then the action fails.
    const users = {
      setUserStatus: async () => {
        again = await call('report', { kind: 'user', id: alice.userId, reason: 'spam' }, bob);
        throw new Error('the disk is gone');
      },
    } as unknown as AdminService['users'];
    const failing = new ReportQueue(
      { repos: server.ctx.repos, now: server.clock.now },
      { audit: admin.audit, groups: admin.groups, users },
    );
    await expect(
      failing.act({ id: filed.id, action: 'disable' }, { adminId: root.userId, ip: 'test' }),
    ).rejects.toThrow('the disk is gone');
    expect(again!.id).not.toBe(filed.id);
    const rows = await server.ctx.db
      .selectFrom('reports')
      .select(['id', 'status', 'action', 'open_key'])
      .where('id', 'in', [filed.id, again!.id])
      .orderBy('id')
      .execute();
    // Both wait for an admin; the newer one answers the reporter's next report of the same.
    expect(rows.map((r) => [r.status, r.action])).toEqual([
      ['review', ''],
      ['new', ''],
    ]);
    expect(rows[0]!.open_key).toBeNull();
    expect(rows[1]!.open_key).not.toBeNull();
    expect((await call('report', { kind: 'user', id: alice.userId, reason: 'spam' }, bob)).id).toBe(again!.id);
    // The reopened one is acted on as any other.
    await call('manageReportAct', { id: filed.id, action: 'dismiss' }, root);
  });

  it('keeps the pictures of the messages around a reported one, even once their sender withdraws them', async () => {
    const { alice, bob } = await cast();
    const fileId = await picture(alice);
    const src = `/storage/${(await server.ctx.repos.files.byId(fileId))!.storage_key}`;
    const shown = await call(
      'sendMessage',
      { id: randomUUID(), toContactId: bob.userId, type: 'image', content: src, file_id: fileId },
      alice,
    );
    const reported = await text(alice, bob, 'look at that');
    const filed = await call('report', { kind: 'message', id: reported.msg_id, reason: 'harassment' }, bob);
    const kept = await server.ctx.db
      .selectFrom('report_files')
      .select(['file_id', 'attached'])
      .where('report_id', '=', filed.id)
      .execute();
    expect(kept).toEqual([{ file_id: fileId, attached: 0 }]);
    await call('undoMessage', { id: shown.msg_id }, alice);
    const opened = await server.ctx.storage.open(src.slice('/storage/'.length));
    opened?.stream.destroy();
    expect(opened).not.toBeNull();
    expect((await server.ctx.repos.files.byId(fileId))!.removed_at).toBe(0);
  });

  it('a server-wide mute covers placing a call and putting a reaction on; taking one back stays allowed', async () => {
    const { alice, bob, root } = await cast();
    const webrtc = server.ctx.config.get().chatInfo.webrtc;
    await server.ctx.config.set('chatInfo.webrtc', '1');
    const fromBob = await text(bob, alice, 'react to this');
    await call('reactMessage', { id: fromBob.msg_id, emoji: '👍', on: 1 }, alice);
    const filed = await call('report', { kind: 'user', id: alice.userId, reason: 'harassment' }, bob);
    await call('manageReportAct', { id: filed.id, action: 'mute', minutes: 60 }, root);
    const calling = () =>
      answer('sendToMsg', { id: randomUUID(), toContactId: bob.userId, type: 0, event: 'calling' }, alice);
    const react = (emoji: string, on: 0 | 1) => answer('reactMessage', { id: fromBob.msg_id, emoji, on }, alice);
    for (const res of [await calling(), await react('😀', 1)]) {
      expect(res.code, res.msg).toBe(ErrorCodes.ServerMuted);
      expect(res.msg).toMatch(/^An administrator muted you until .+\d/);
    }
    expect((await react('👍', 0)).code).toBe(0);
    server.clock.advance(61 * 60_000);
    expect((await react('😀', 1)).code).toBe(0);
    expect((await calling()).code).toBe(0);
    await server.ctx.config.set('chatInfo.webrtc', String(webrtc));
  });
});
