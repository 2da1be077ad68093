/**
 * Raingad 6.x clients against Sparrow, unchanged (issue 22). This suite speaks as the original
 * clients do, not as Sparrow's own: the web client (Vue 2 + Lemon-IMUI) posts every call as a form
 * built by `qs.stringify` (bracketed arrays and objects, empty arrays left out) with `Authorization`
 * and `sessionId` headers and no `clientId`, on its own paths and casing; the uni-app client posts
 * JSON, also without `clientId`. Each test asserts the fields those clients read, as
 * `docs/raingad.md` lists them. The JSON contract has its own suites.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Secret, TOTP } from 'otpauth';
import qs from 'qs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_VERSION_CODE, DEFAULT_GLOBAL_CONFIG, MOMENTS_PAGE, parseQrLink, PICTURES } from '@sparrow/protocol';
import { defaultAvatars } from '../src/db/migrations/020-default-avatars';
import { AdminService } from '../src/modules/admin';
import { describeEachDb, signUp, startServer, TestSocket, type TestServer } from './harness';

/** The web client's axios default for every post that is not an upload. */
const FORM = 'application/x-www-form-urlencoded;charset=UTF-8';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a push that must not come is given to arrive before the test says it did not. */
const QUIET_MS = 300;

interface Account {
  account: string;
  password: string;
  userId: number;
}

/**
 * One signed-in original web client: its request interceptor (form bodies through qs.stringify,
 * `sessionId` and `Authorization` once logged in, never `clientId`) and its socket.
 */
class OldWebClient {
  token = '';
  sessionId = '';
  userId = 0;
  socket: TestSocket | undefined;

  constructor(
    private readonly server: TestServer,
    readonly who: Account,
  ) {}

  /** A post as `src/utils/request.js` sends it; answers the envelope. */
  async post(path: string, data: Record<string, unknown> = {}): Promise<any> {
    const headers: Record<string, string> = { 'content-type': FORM };
    if (this.sessionId && this.token) {
      headers.sessionid = this.sessionId;
      headers.authorization = this.token;
    }
    const res = await this.server.post(`/${path}`, qs.stringify(data), headers);
    expect(res.status, path).toBe(200);
    return res.json;
  }

  /** The login page's form: account, password and the unused code field, empty. */
  async login(): Promise<any> {
    const res = await this.post('common/Pub/login', {
      account: this.who.account,
      password: this.who.password,
      code: '',
    });
    expect(res.code, res.msg).toBe(0);
    this.token = res.data.authToken;
    this.sessionId = String(res.data.sessionId);
    this.userId = res.data.userInfo.user_id;
    return res;
  }

  /** socket init → HTTP bindUid with the init's client_id → the socket's own bindUid. */
  async connect(): Promise<TestSocket> {
    const socket = await TestSocket.open(this.server);
    const bound = await this.post('common/Pub/bindUid', { client_id: socket.clientId, user_id: this.userId });
    expect(bound.code, bound.msg).toBe(0);
    socket.send({ type: 'bindUid', user_id: this.userId, token: this.token });
    await socket.waitFor((f) => f.type === 'pong');
    this.socket = socket;
    return socket;
  }

  /** A message as Lemon-IMUI hands it to sendMessage: every field present, unused ones blank. */
  draft(toContactId: number | string, content: string, extra: Record<string, unknown> = {}) {
    return {
      id: randomUUID(),
      status: 'going',
      type: 'text',
      sendTime: Date.now(),
      content,
      toContactId,
      fromUser: { id: this.userId, displayName: this.who.account, avatar: '' },
      is_group: typeof toContactId === 'string' && toContactId.startsWith('group-') ? 1 : 0,
      file_id: 0,
      file_cate: 0,
      fileName: '',
      fileSize: 0,
      at: [],
      pid: 0,
      extends: {},
      ...extra,
    };
  }
}

describeEachDb('Raingad 6.x clients', (target) => {
  let server: TestServer;
  let n = 0;

  /** A web build as the server serves one: the client's public files (sound, pictures) beside its page. */
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-compat-web-'));

  beforeAll(async () => {
    fs.cpSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/public'), webDist, {
      recursive: true,
    });
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Sparrow</title>');
    server = await startServer(target, { env: { webDist } });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  /**
   * A registered user (registration is not part of the old client's session under test), who
   * signed up in Chinese: those clients name no language of their own.
   */
  async function person(name: string): Promise<Account> {
    const account = `${name}_${++n}`;
    const made = await signUp(server, account, undefined, undefined, { lang: 'zh-CN' });
    return { account, password: made.password, userId: made.userId };
  }

  /** Signed in through the old login form, socket bound. */
  async function online(name: string): Promise<OldWebClient> {
    const client = new OldWebClient(server, await person(name));
    await client.login();
    await client.connect();
    return client;
  }

  /** Friends, as the old clients make them: add, the other lists requests to them, accepts. */
  async function befriend(a: OldWebClient, b: OldWebClient) {
    expect((await a.post('enterprise/friend/add', { user_id: b.userId, remark: 'hi' })).code).toBe(0);
    const asked = await b.post('enterprise/friend/index', { is_mine: 0, page: 1, limit: 20 });
    const request = asked.data.find((r: any) => r.create_user_info.user_id === a.userId);
    expect(request).toBeDefined();
    expect((await b.post('enterprise/friend/update', { friend_id: request.friend_id, status: 1 })).code).toBe(0);
  }

  /** A group made by the first, with the others in it, through the old client's group/add. */
  async function group(owner: OldWebClient, ...others: OldWebClient[]): Promise<string> {
    const made = await owner.post('enterprise/group/add', {
      user_ids: others.map((o) => o.userId),
      name: '老客户端群',
    });
    expect(made.code, made.msg).toBe(0);
    expect(made.data.id).toMatch(/^group-\d+$/);
    return made.data.id;
  }

  it('login from the old form: code= empty is a password login (point 1)', async () => {
    const who = await person('form');
    const client = new OldWebClient(server, who);
    const res = await client.post('common/Pub/login', { account: who.account, password: who.password, code: '' });
    expect(res.code, res.msg).toBe(0);
    expect(res.data.authToken).toMatch(/^bearer /);
    expect(res.data.userInfo).toMatchObject({ id: who.userId, user_id: who.userId, displayName: who.account });
    // The blank is only "absent": a wrong password is still wrong, and a code that is there is checked.
    const wrong = await client.post('common/Pub/login', { account: who.account, password: 'wrong-pass', code: '' });
    expect(wrong.code).toBe(400);
    const badCode = await client.post('common/Pub/login', { account: who.account, code: '12' });
    expect(badCode.code).toBe(400);
    expect(badCode.data.fields).toContain('code');
  });

  it('login from the old form for an account with two-step sign-in: the clear 需要二次验证 message, no session', async () => {
    const who = await person('twostep');
    const client = new OldWebClient(server, who);
    await client.login();
    const begin = await client.post('enterprise/im/totpBegin');
    expect(begin.code, begin.msg).toBe(0);
    const code = TOTP.generate({ secret: Secret.fromBase32(begin.data.secret), timestamp: server.clock.now() });
    expect((await client.post('enterprise/im/totpConfirm', { code })).code).toBe(0);
    const res = await client.post('common/Pub/login', { account: who.account, password: who.password, code: '' });
    expect({ code: res.code, msg: res.msg }).toEqual({ code: 400, msg: '需要二次验证，请使用新版客户端' });
    expect(res.data?.authToken).toBeUndefined();
  });

  describe('a first session of the original web client', () => {
    let alice: OldWebClient;
    let bob: OldWebClient;
    let draft: ReturnType<OldWebClient['draft']>;
    let reply: ReturnType<OldWebClient['draft']>;
    /** Alice's frames before Bob opened the chat. */
    let fromAlice: number;
    let picture: { id: string } & Record<string, unknown>;

    it('logs in, reads the system info and connects its socket', async () => {
      alice = new OldWebClient(server, await person('alice'));
      bob = await online('bob');
      await alice.login();
      const sys = await alice.post('common/Pub/getSystemInfo');
      expect(sys.code).toBe(0);
      expect(sys.data.sysInfo).toMatchObject({ runMode: expect.any(Number), multipleLogin: expect.any(Number) });
      expect(sys.data.chatInfo).toMatchObject({ redoTime: expect.any(Number), dbDelMsg: expect.any(Number) });
      expect(sys.data.fileUpload).toMatchObject({ size: expect.any(Number), fileExt: expect.any(Array) });
      await alice.connect();
      await befriend(alice, bob);
    });

    it('reads its contacts and, at start-up, the Files menu', async () => {
      const contacts = await alice.post('enterprise/im/getContacts');
      expect(contacts.code).toBe(0);
      const bobRow = contacts.data.find((c: any) => c.id === bob.userId);
      expect(bobRow).toMatchObject({ id: bob.userId, user_id: bob.userId, is_group: 0, index: expect.any(String) });
      expect(contacts.data.map((c: any) => c.id)).toEqual(expect.arrayContaining(['admin_notice', -1]));

      // The Files menu asks at start-up, with every parameter its page holds.
      const files = await alice.post('enterprise/files/index', {
        page: 1,
        limit: 20,
        keywords: '',
        cate: 0,
        is_all: 0,
        role: 0,
      });
      expect(files.code, files.msg).toBe(0);
      expect(files.data).toEqual([]);
      expect(files.count).toBe(0);
    });

    it("reads the history, sends the editor's HTML as text, and the peer receives it filed under the sender", async () => {
      const history = await alice.post('enterprise/im/getMessageList', {
        toContactId: bob.userId,
        is_group: 0,
        page: 1,
        limit: 20,
      });
      expect(history.code).toBe(0);
      // The chat opens with Bob's greeting, sent as he accepted.
      expect(history.data.map((m: any) => [m.type, m.fromUser.id])).toEqual([['text', bob.userId]]);

      // The editor's HTML, as Lemon-IMUI sends it.
      const from = alice.socket!.frames.length;
      draft = alice.draft(bob.userId, '你好，<b>Bob</b><br>第二行');
      const sent = await alice.post('enterprise/im/sendMessage', draft);
      expect(sent.code, sent.msg).toBe(0);
      expect(sent.data).toMatchObject({ id: draft.id, toContactId: bob.userId, content: '你好，Bob\n第二行' });

      const got = await bob.socket!.waitFor((f) => f.type === 'simple' && f.data.id === draft.id);
      // The receiver files it under the sender: the conversation as Bob sees it.
      expect(got.data).toMatchObject({
        toContactId: alice.userId,
        toUser: bob.userId,
        is_group: 0,
        status: 'succeed',
        msg_id: expect.any(Number),
        content: '你好，Bob\n第二行',
        fromUser: { id: alice.userId, user_id: alice.userId },
        contactInfo: { id: alice.userId, user_id: alice.userId },
      });
      // Bob's list counts it unread under Alice.
      const bobs = await bob.post('enterprise/im/getContacts');
      expect(bobs.data.find((c: any) => c.id === alice.userId)).toMatchObject({
        unread: 1,
        lastContent: expect.any(String),
      });
      // Alice's own socket gets no second copy of what she sent (her client has it already).
      await sleep(QUIET_MS);
      expect(alice.socket!.frames.slice(from).filter((f) => f.data?.id === draft.id)).toEqual([]);
    });

    it('receives the reply under the peer, both histories listing both as each sees them', async () => {
      // Bob's reply reaches Alice under Bob; her history lists both as she sees them.
      reply = bob.draft(alice.userId, '收到');
      expect((await bob.post('enterprise/im/sendMessage', reply)).code).toBe(0);
      const back = await alice.socket!.waitFor((f) => f.type === 'simple' && f.data.id === reply.id);
      expect(back.data.toContactId).toBe(bob.userId);
      const both = await alice.post('enterprise/im/getMessageList', { toContactId: bob.userId, is_group: 0, page: 1 });
      expect(both.data.slice(1).map((m: any) => [m.id, m.toContactId])).toEqual([
        [draft.id, bob.userId],
        [reply.id, bob.userId],
      ]);
      const bobsHistory = await bob.post('enterprise/im/getMessageList', { toContactId: alice.userId, is_group: 0 });
      expect(bobsHistory.data.map((m: any) => m.toContactId)).toEqual([alice.userId, alice.userId, alice.userId]);
    });

    it("marks read from the messages the peer's client posts, and the sender's client hears which", async () => {
      // Bob opens the chat: his client posts the unread messages it holds, whole, with the sender as fromUser.
      const unread = (await bob.post('enterprise/im/getMessageList', { toContactId: alice.userId, is_group: 0 })).data;
      fromAlice = alice.socket!.frames.length;
      const opened = await bob.post('enterprise/im/setMsgIsRead', {
        is_group: 0,
        toContactId: alice.userId,
        messages: unread.filter((m: any) => m.fromUser.id === alice.userId),
        fromUser: alice.userId,
      });
      expect(opened.code, opened.msg).toBe(0);
      expect((await bob.post('enterprise/im/getContacts')).data.find((c: any) => c.id === alice.userId).unread).toBe(0);
      // Alice's client marks read, by id, the messages the push lists (its content re-rendered).
      const seen = await alice.socket!.waitFor((f) => f.type === 'isRead', 3000, fromAlice);
      expect(seen.data.map((m: any) => m.id)).toEqual([draft.id]);
      expect(seen.data[0]).toMatchObject({ content: '你好，Bob\n第二行', is_read: 1, toContactId: bob.userId });
    });

    it('uploads an image with the message its editor made for it', async () => {
      // An image, uploaded with the message Lemon-IMUI made for it.
      const png = await sharp({ create: { width: 24, height: 24, channels: 3, background: { r: 90, g: 9, b: 9 } } })
        .png()
        .toBuffer();
      picture = {
        content: 'blob:http://localhost/4b1c',
        fromUser: { id: alice.userId, displayName: alice.who.account, avatar: '' },
        id: randomUUID(),
        sendTime: Date.now(),
        status: 'going',
        toContactId: bob.userId,
        type: 'image',
        is_group: 0,
      };
      const up = await server.upload(
        'uploadFile',
        { name: 'screenShot.png', bytes: png, type: 'image/png' },
        { token: alice.token, fields: { message: JSON.stringify(picture) } },
      );
      expect(up.json.code, up.json.msg).toBe(0);
      expect(up.json.data).toMatchObject({ id: picture.id, type: 'image', toContactId: bob.userId });
      const image = await bob.socket!.waitFor((f) => f.type === 'simple' && f.data.id === picture.id);
      expect(image.data).toMatchObject({ toContactId: alice.userId, content: expect.stringContaining('/storage/') });
    });

    it("withdraws it: the peer's client updates the message it holds by id", async () => {
      // Withdraw: the peer's client updates the message it holds by id.
      expect((await alice.post('enterprise/im/undoMessage', { id: picture.id })).code).toBe(0);
      const undone = await bob.socket!.waitFor((f) => f.type === 'undoMessage' && f.data.id === picture.id);
      expect(undone.data).toMatchObject({ type: 'event', toContactId: alice.userId });
      await sleep(QUIET_MS);
      expect(
        alice.socket!.frames.slice(fromAlice).filter((f) => f.data?.id === picture.id && f.type === 'simple'),
      ).toEqual([]);
    });

    it('logs out: the next call with its token is told to sign in again', async () => {
      // Logout ends the session: the next call with its token is told to sign in again.
      expect((await alice.post('common/Pub/logout', { client_id: alice.socket!.clientId })).code).toBe(0);
      expect((await alice.post('enterprise/im/getContacts')).code).toBe(-1);
    });
  });

  it('sends text with file_id=0, private and group (point 2)', async () => {
    const [a, b, c] = [await online('ann'), await online('ben'), await online('cat')];
    await befriend(a, b);
    await befriend(a, c);
    const privately = await a.post('enterprise/im/sendMessage', a.draft(b.userId, 'hello'));
    expect(privately.code, privately.msg).toBe(0);
    const groupId = await group(a, b, c);
    const inGroup = a.draft(groupId, '大家好');
    const res = await a.post('enterprise/im/sendMessage', inGroup);
    expect(res.code, res.msg).toBe(0);
    const pushed = await c.socket!.waitFor((f) => f.type === 'group' && f.data.id === inGroup.id);
    expect(pushed.data).toMatchObject({ toContactId: groupId, is_group: 1, fromUser: { id: a.userId } });
    // A file_id that is there is still a file that must be mine to send.
    const forged = await a.post(
      'enterprise/im/sendMessage',
      a.draft(b.userId, 'x', { type: 'file', file_id: 999_999 }),
    );
    expect(forged.code).not.toBe(0);
  });

  it("a private message's receiver reads the sender as toContactId, pushed and listed (point 3)", async () => {
    const [a, b] = [await online('ta'), await online('tb')];
    await befriend(a, b);
    const draft = a.draft(b.userId, 'hi');
    expect((await a.post('enterprise/im/sendMessage', draft)).code).toBe(0);
    const pushed = await b.socket!.waitFor((f) => f.type === 'simple' && f.data.id === draft.id);
    expect(pushed.data).toMatchObject({ toContactId: a.userId, toUser: b.userId, is_group: 0 });
    const mine = (m: any) => m.id === draft.id;
    const listed = await b.post('enterprise/im/getMessageList', { toContactId: a.userId, is_group: 0 });
    expect(listed.data.filter(mine).map((m: any) => [m.toContactId, m.toUser])).toEqual([[a.userId, b.userId]]);
    // The sender's own copy names the receiver.
    const own = await a.post('enterprise/im/getMessageList', { toContactId: b.userId, is_group: 0 });
    expect(own.data.filter(mine).map((m: any) => [m.toContactId, m.toUser])).toEqual([[b.userId, b.userId]]);
    // The unread badge: the row the push names holds it.
    const rows = await b.post('enterprise/im/getContacts');
    expect(rows.data.find((c: any) => c.id === pushed.data.toContactId)).toMatchObject({ unread: 1 });
  });

  it('checkVersion takes release as the numeric version code (point 7)', async () => {
    const client = new OldWebClient(server, await person('ver'));
    // The uni-app client posts JSON with numbers.
    const current = await server.post('/common/pub/checkVersion', { release: APP_VERSION_CODE, type: 1101 });
    expect(current.json.code, current.json.msg).toBe(0);
    expect(current.json.data).toMatchObject({ versionCode: APP_VERSION_CODE, downloadUrl: '' });
    const older = await server.post('/common/pub/checkVersion', { release: 20250107, setupPage: true, type: 1102 });
    expect(older.json.code).toBe(0);
    expect(older.json.data.downloadUrl).not.toBe('');
    // The newest Raingad build (6.1.0, 20250916) is not asked on every start to install an app that does not exist.
    const raingad = await server.post('/common/pub/checkVersion', { release: 20250916, type: 1101 });
    expect(raingad.json.data).toMatchObject({ versionCode: APP_VERSION_CODE, updateType: 'solicit', downloadUrl: '' });
    // And as a form, the code arrives as text.
    const form = await client.post('common/pub/checkVersion', { release: APP_VERSION_CODE });
    expect(form.code).toBe(0);
    expect(form.data.downloadUrl).toBe('');
  });

  it('files/index answers as the old file manager reads it, by role and is_all (point 4)', async () => {
    const [a, b] = [await online('fa'), await online('fb')];
    await befriend(a, b);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 9, g: 9, b: 9 } } })
      .png()
      .toBuffer();
    const message = JSON.stringify({
      id: randomUUID(),
      toContactId: b.userId,
      is_group: 0,
      type: 'image',
      content: '',
    });
    const up = await server.upload(
      'uploadFile',
      { name: 'photo.png', bytes: png, type: 'image/png' },
      { token: a.token, fields: { message } },
    );
    expect(up.json.code, up.json.msg).toBe(0);

    const sent = await a.post('enterprise/files/index', {
      page: 1,
      limit: 20,
      keywords: '',
      cate: 0,
      is_all: 0,
      role: 1,
    });
    expect(sent.code).toBe(0);
    expect(sent.count).toBe(1);
    expect(sent.page).toBe(1);
    expect(sent.data[0]).toMatchObject({
      src: expect.stringContaining('/storage/'),
      preview: expect.any(String),
      extUrl: expect.any(String),
      name: expect.any(String),
      size: expect.any(Number),
      cate: 2,
      msg_type: 'image',
      ext: 'png',
      user_id_info: { id: a.userId, user_id: a.userId },
      download: expect.stringContaining('/storage/'),
    });
    expect((await a.post('enterprise/files/index', { role: 2 })).count).toBe(0);
    expect((await b.post('enterprise/files/index', { role: 2 })).count).toBe(1);
    expect((await b.post('enterprise/files/index', { role: 1 })).count).toBe(0);
    expect((await b.post('enterprise/files/index', { role: 0 })).count).toBe(1);
    expect((await a.post('enterprise/files/index', { is_all: 1, role: 2 })).count).toBe(1);
    expect((await a.post('enterprise/files/index', { cate: 1, role: 0 })).count).toBe(0);
    // "All files" is everything I sent or received, never other people's.
    const stranger = await online('fc');
    expect((await stranger.post('enterprise/files/index', { is_all: 1 })).count).toBe(0);
  });

  it('group members carry id beside user_id (point 5)', async () => {
    const [a, b, c] = [await online('ga'), await online('gb'), await online('gc')];
    await befriend(a, b);
    await befriend(a, c);
    const groupId = await group(a, b, c);
    const list = await b.post('enterprise/group/groupuserlist', { group_id: groupId });
    expect(list.code).toBe(0);
    expect(list.count).toBe(3);
    for (const m of list.data) {
      expect(m.userInfo.id).toBe(m.user_id);
      expect(m.userInfo).toMatchObject({ displayName: expect.any(String), avatar: expect.any(String) });
    }
    expect(list.data[0]).toMatchObject({ user_id: a.userId, role: 1 });
    const info = await b.post('enterprise/group/groupInfo', { group_id: groupId });
    expect(info.data).toMatchObject({ id: groupId, isJoin: 3, owner: { id: a.userId, user_id: a.userId } });
    const sent = await a.post('enterprise/friend/index', { is_mine: 1 });
    for (const r of sent.data) {
      expect(r.create_user_info.id).toBe(a.userId);
      expect(r.user_id_info.id).toBe(r.user_id_info.user_id);
    }
  });

  it('no clientId: my send is not echoed to my socket; reading tells the peer isRead, and readAll reaches only my other Sparrow sockets (point 6)', async () => {
    const [a, b] = [await online('ra'), await online('rb')];
    await befriend(a, b);
    // Alice on a second device: another session, another socket.
    const other = new OldWebClient(server, a.who);
    await other.login();
    await other.connect();

    const draft = a.draft(b.userId, 'ping');
    const fromA = a.socket!.frames.length;
    expect((await a.post('enterprise/im/sendMessage', draft)).code).toBe(0);
    const onOther = await other.socket!.waitFor((f) => f.type === 'simple' && f.data.id === draft.id);
    expect(onOther.data.toContactId).toBe(b.userId);
    await b.socket!.waitFor((f) => f.type === 'simple' && f.data.id === draft.id);

    // Bob reads: Alice's sockets are told which of her messages Bob read.
    const fromB = b.socket!.frames.length;
    const fromOther = other.socket!.frames.length;
    expect((await b.post('enterprise/im/setMsgIsRead', { toContactId: a.userId, is_group: 0 })).code).toBe(0);
    const read = await a.socket!.waitFor((f) => f.type === 'isRead', 3000, fromA);
    expect(read.data.map((m: any) => m.id)).toEqual([draft.id]);
    await other.socket!.waitFor((f) => f.type === 'isRead', 3000, fromOther);
    const answer = b.draft(a.userId, 'pong');
    expect((await b.post('enterprise/im/sendMessage', answer)).code).toBe(0);

    // Alice reads on her first device: her Sparrow device hears readAll, about her reading; no old
    // client hears it, since to them it would say that Bob read everything.
    const login = await server.call('login', { account: a.who.account, password: a.who.password });
    const sparrow = await TestSocket.bound(server, a.userId, login.data.authToken);
    const fromOther2 = other.socket!.frames.length;
    expect((await a.post('enterprise/im/setMsgIsRead', { toContactId: b.userId, is_group: 0 })).code).toBe(0);
    const mine = await sparrow.waitFor((f) => f.type === 'readAll');
    expect(mine.data.toContactId).toBe(b.userId);
    await sleep(QUIET_MS);
    const echoes = a.socket!.frames.slice(fromA).filter((f) => f.type === 'readAll' || f.data?.id === draft.id);
    expect(echoes).toEqual([]);
    expect(other.socket!.frames.slice(fromOther2).filter((f) => f.type === 'readAll')).toEqual([]);
    sparrow.close();
    // Bob never hears readAll: what he is told of Alice's reading is isRead, with his message.
    expect(b.socket!.frames.slice(fromB).filter((f) => f.type === 'readAll')).toEqual([]);
    const bobsRead = await b.socket!.waitFor((f) => f.type === 'isRead', 3000, fromB);
    expect(bobsRead.data.map((m: any) => m.id)).toEqual([answer.id]);
  });

  it('group management as the old clients call it, and the pushes they read', async () => {
    const [owner, b, c, d] = [await online('go'), await online('gb'), await online('gc'), await online('gd')];
    for (const other of [b, c, d]) await befriend(owner, other);
    const groupId = await group(owner, b, c);
    // addGroup: the contact the client appends, then binds its socket to the group as it always did.
    const added = await b.socket!.waitFor((f) => f.type === 'addGroup' && f.data.id === groupId);
    expect(added.data).toMatchObject({ id: groupId, is_group: 1, displayName: '老客户端群', owner_id: owner.userId });
    expect(added.data.avatar).toEqual(expect.any(String));
    const bound = await b.post('common/pub/bindGroup', { client_id: b.socket!.clientId, group_id: groupId });
    expect(bound.code, bound.msg).toBe(0);

    const mark = () => b.socket!.frames.length;
    let from = mark();
    expect((await owner.post('enterprise/group/editGroupName', { id: groupId, displayName: '新群名' })).code).toBe(0);
    const renamed = await b.socket!.waitFor((f) => f.type === 'editGroupName', 3000, from);
    expect(renamed.data).toMatchObject({ id: groupId, displayName: '新群名', editUserName: expect.any(String) });

    from = mark();
    expect((await owner.post('enterprise/group/setNotice', { id: groupId, notice: '明天开会' })).code).toBe(0);
    const notice = await b.socket!.waitFor((f) => f.type === 'setNotice', 3000, from);
    expect(notice.data).toMatchObject({ group_id: groupId, notice: expect.stringContaining('明天开会') });

    // The settings dialog posts the whole setting object, as qs nests it: setting[invite]=1…
    from = mark();
    const setting = { manage: 0, invite: 1, nospeak: 1, history: true, profile: false };
    const set = await owner.post('enterprise/group/groupSetting', { id: groupId, setting });
    expect(set.code, set.msg).toBe(0);
    const changed = await b.socket!.waitFor((f) => f.type === 'groupSetting', 3000, from);
    expect(changed.data).toMatchObject({
      group_id: groupId,
      setting: { nospeak: 1, invite: 1, history: 1, profile: 0 },
    });
    expect((await owner.post('enterprise/group/groupSetting', { id: groupId, setting: { nospeak: 0 } })).code).toBe(0);

    // setManager, addGroupUser and removeUser: the client refreshes the member list and sets the avatar.
    from = mark();
    expect((await owner.post('enterprise/group/setManager', { id: groupId, user_id: c.userId, role: 2 })).code).toBe(0);
    const manager = await b.socket!.waitFor((f) => f.type === 'setManager', 3000, from);
    expect(manager.data).toMatchObject({ group_id: groupId, user_id: c.userId, avatar: expect.any(String) });

    from = mark();
    expect((await owner.post('enterprise/group/addGroupUser', { id: groupId, user_ids: [d.userId] })).code).toBe(0);
    const joined = await b.socket!.waitFor((f) => f.type === 'addGroupUser', 3000, from);
    expect(joined.data).toMatchObject({ group_id: groupId, avatar: expect.any(String) });
    await d.socket!.waitFor((f) => f.type === 'addGroup' && f.data.id === groupId);
    expect((await b.post('enterprise/group/groupuserlist', { group_id: groupId })).data).toHaveLength(4);

    from = mark();
    const muted = await owner.post('enterprise/group/setNoSpeak', { id: groupId, user_id: d.userId, noSpeakTimer: 1 });
    expect(muted.code, muted.msg).toBe(0);
    const mute = await b.socket!.waitFor((f) => f.type === 'setNoSpeak', 3000, from);
    expect(mute.data).toMatchObject({ group_id: groupId, user_id: d.userId });

    from = mark();
    expect((await owner.post('enterprise/group/removeUser', { id: groupId, user_id: d.userId })).code).toBe(0);
    const removed = await b.socket!.waitFor((f) => f.type === 'removeUser', 3000, from);
    expect(removed.data).toMatchObject({ group_id: groupId, user_id: d.userId, avatar: expect.any(String) });
    await d.socket!.waitFor((f) => f.type === 'removeUser' && f.data.user_id === d.userId);

    // A new picture reaches old clients as setManager {group_id, avatar}: their only way to hear of it.
    from = mark();
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 1, g: 99, b: 9 } } })
      .png()
      .toBuffer();
    const pic = await server.upload(
      'uploadGroupAvatar',
      { name: 'g.png', bytes: png, type: 'image/png' },
      { token: owner.token, fields: { group_id: groupId } },
    );
    expect(pic.json.code, pic.json.msg).toBe(0);
    const picture = await b.socket!.waitFor((f) => f.type === 'setManager' && f.data.user_id === undefined, 3000, from);
    expect(picture.data).toEqual({ group_id: groupId, avatar: pic.json.data });

    from = mark();
    expect((await owner.post('enterprise/group/changeOwner', { id: groupId, user_id: b.userId })).code).toBe(0);
    const owned = await b.socket!.waitFor((f) => f.type === 'changeOwner', 3000, from);
    expect(owned.data).toMatchObject({ group_id: groupId, user_id: b.userId });

    from = mark();
    expect((await b.post('enterprise/group/removeGroup', { id: groupId })).code).toBe(0);
    const gone = await c.socket!.waitFor((f) => f.type === 'removeGroup');
    expect(gone.data).toEqual({ group_id: groupId });
  });

  it('friends as the old clients call them: add, index, update, setNickname, del', async () => {
    const [a, b] = [await online('fra'), await online('frb')];
    expect((await a.post('enterprise/friend/add', { user_id: b.userId, remark: '我是A' })).code).toBe(0);
    // The request arrives as a simple push from system, which the client counts on its "new friends" badge.
    const asked = await b.socket!.waitFor((f) => f.type === 'simple' && f.data.fromUser.id === 'system');
    expect(asked.data).toMatchObject({ toContactId: 'system', is_group: 2, type: 'event', status: 'succeed' });
    expect((await b.post('enterprise/im/getContacts')).count).toBe(1);

    const list = await b.post('enterprise/friend/index', { is_mine: 0, page: 1, limit: 20 });
    expect(list.data[0]).toMatchObject({
      friend_id: expect.any(Number),
      remark: '我是A',
      status: 2,
      create_user_info: { id: a.userId, user_id: a.userId, displayName: a.who.account },
      user_id_info: { id: b.userId, user_id: b.userId },
    });
    expect((await b.post('enterprise/friend/update', { friend_id: list.data[0].friend_id, status: 1 })).code).toBe(0);
    for (const [me, them] of [
      [a, b],
      [b, a],
    ] as const) {
      const contact = await me.socket!.waitFor((f) => f.type === 'appendContact');
      expect(contact.data).toMatchObject({ id: them.userId, user_id: them.userId, is_group: 0 });
    }

    const mine = (await a.post('enterprise/im/getContacts')).data.find((c: any) => c.id === b.userId);
    const named = await a.post('enterprise/friend/setNickname', { friend_id: mine.friend_id, nickname: '老B' });
    expect(named.code, named.msg).toBe(0);
    const renamed = (await a.post('enterprise/im/getContacts')).data.find((c: any) => c.id === b.userId);
    expect(renamed.displayName).toBe('老B');
    const profile = await a.post('enterprise/im/getUserInfo', { user_id: b.userId });
    expect(profile.data).toMatchObject({ id: b.userId, user_id: b.userId, displayName: '老B' });

    // Unfriending: the other side drops the contact on removeGroup {group_id: <my id>}.
    expect((await a.post('enterprise/friend/del', { id: b.userId })).code).toBe(0);
    const dropped = await b.socket!.waitFor((f) => f.type === 'removeGroup');
    expect(dropped.data).toEqual({ group_id: a.userId });
  });

  it('stickers: index, add, move and del with the ids[] the clients send', async () => {
    const a = await online('emo');
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 200, g: 9, b: 9 } } })
      .png()
      .toBuffer();
    const up = await server.upload('uploadEmoji', { name: 's.png', bytes: png, type: 'image/png' }, { token: a.token });
    expect(up.json.code, up.json.msg).toBe(0);
    const sticker = await server.upload(
      'uploadFile',
      { name: 't.png', bytes: png, type: 'image/png' },
      { token: a.token },
    );
    expect((await a.post('enterprise/emoji/add', { file_id: sticker.json.data.file_id })).code).toBe(0);
    const index = await a.post('enterprise/emoji/index');
    expect(index.code).toBe(0);
    for (const e of index.data)
      expect(e).toMatchObject({ id: expect.any(Number), src: expect.any(String), file_id: expect.any(Number) });
    const ids = index.data.map((e: any) => e.id);
    expect((await a.post('enterprise/emoji/move', { ids: [ids.at(-1)] })).code).toBe(0);
    expect((await a.post('enterprise/emoji/index')).data[0].id).toBe(ids.at(-1));
    expect((await a.post('enterprise/emoji/del', { ids })).code).toBe(0);
    expect((await a.post('enterprise/emoji/index')).data).toEqual([]);
  });

  it('messages: undo, pin, mute, forward and delete for me, answered and pushed as the clients read them', async () => {
    const [a, b, c] = [await online('ma'), await online('mb'), await online('mc')];
    await befriend(a, b);
    await befriend(a, c);
    const draft = a.draft(b.userId, '说错了');
    const sent = await a.post('enterprise/im/sendMessage', draft);
    await b.socket!.waitFor((f) => f.type === 'simple' && f.data.id === draft.id);

    // undoMessage: the peer's client updates the message it holds by id.
    expect((await a.post('enterprise/im/undoMessage', { id: draft.id })).code).toBe(0);
    const undone = await b.socket!.waitFor((f) => f.type === 'undoMessage');
    expect(undone.data).toMatchObject({ id: draft.id, msg_id: sent.data.msg_id, type: 'event', toContactId: a.userId });
    expect(undone.data.content).toContain('撤回了一条消息');

    // Pin and mute go to my own sockets, as {id, is_top|is_notice, is_group}.
    const other = new OldWebClient(server, a.who);
    await other.login();
    await other.connect();
    expect((await a.post('enterprise/im/setChatTop', { id: b.userId, is_top: 1, is_group: 0 })).code).toBe(0);
    const pinned = await other.socket!.waitFor((f) => f.type === 'setChatTop');
    expect(pinned.data).toEqual({ id: b.userId, is_top: 1, is_group: 0 });
    expect((await a.post('enterprise/im/isNotice', { id: b.userId, is_notice: 0, is_group: 0 })).code).toBe(0);
    const quiet = await other.socket!.waitFor((f) => f.type === 'setIsNotice');
    expect(quiet.data).toEqual({ id: b.userId, is_notice: 0, is_group: 0 });
    const row = (await a.post('enterprise/im/getContacts')).data.find((x: any) => x.id === b.userId);
    expect(row).toMatchObject({ is_top: 1, is_notice: 0 });

    // Forward: user_ids as the chooser gives them (numbers as text, groups as group-N).
    const kept = a.draft(b.userId, '转给你');
    const keptRes = await a.post('enterprise/im/sendMessage', kept);
    const groupId = await group(a, b, c);
    const fwd = await a.post('enterprise/im/forwardMessage', {
      msg_id: keptRes.data.msg_id,
      user_ids: [String(c.userId), groupId],
    });
    expect(fwd.code, fwd.msg).toBe(0);
    const toC = await c.socket!.waitFor((f) => f.type === 'simple' && f.data.content === '转给你');
    expect(toC.data).toMatchObject({ toContactId: a.userId, fromUser: { id: a.userId } });
    await c.socket!.waitFor((f) => f.type === 'group' && f.data.content === '转给你' && f.data.toContactId === groupId);

    // removeMessage hides it for me only.
    expect((await b.post('enterprise/im/removeMessage', { id: kept.id })).code).toBe(0);
    const bHistory = await b.post('enterprise/im/getMessageList', { toContactId: a.userId, is_group: 0 });
    expect(bHistory.data.map((m: any) => m.id)).not.toContain(kept.id);
    const aHistory = await a.post('enterprise/im/getMessageList', { toContactId: b.userId, is_group: 0 });
    expect(aHistory.data.map((m: any) => m.id)).toContain(kept.id);
  });

  it('the uni-app client: JSON bodies with null and zero blanks, getContactInfo, delMessage', async () => {
    const [a, b] = [await online('ua'), await online('ub')];
    await befriend(a, b);
    /** A post as its `postJsonRequest` makes it: JSON, Authorization, no clientId. */
    const json = async (who: OldWebClient, path: string, body: Record<string, unknown>) =>
      (await server.post(`/${path}`, body, { authorization: who.token })).json;
    const message = {
      id: randomUUID(),
      toContactId: b.userId,
      is_group: 0,
      type: 'text',
      content: '手机发的',
      sendTime: Date.now(),
      fromUser: { id: a.userId, displayName: a.who.account, avatar: '' },
      at: [],
      pid: 0,
      extends: null,
      file_id: 0,
      status: 'going',
    };
    const sent = await json(a, 'enterprise/im/sendMessage', message);
    expect(sent.code, sent.msg).toBe(0);
    // Its App.vue files a push under toContactId, or under toUser when toContactId is its own id.
    const got = await b.socket!.waitFor((f) => f.type === 'simple' && f.data.id === message.id);
    expect(got.data.toContactId).toBe(a.userId);
    const info = await json(b, 'enterprise/im/getContactInfo', { id: a.userId });
    expect(info.data).toMatchObject({ id: a.userId, user_id: a.userId, is_group: 0 });
    // Deleting for everyone: the peer drops it by id from the conversation it names.
    expect((await json(a, 'enterprise/im/delMessage', { id: message.id })).code).toBe(0);
    const deleted = await b.socket!.waitFor((f) => f.type === 'delMessage');
    expect(deleted.data).toEqual({ id: message.id, msg_id: sent.data.msg_id, toContactId: a.userId });
  });

  it('the mobile client uploads a picture whose message carries extends null, its fields before or after the file', async () => {
    const [a, b] = [await online('upa'), await online('upb')];
    await befriend(a, b);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    for (const order of ['before', 'after'] as const) {
      // components/message/im-input.vue's msgItem(): every field present, `extends: null`.
      const message = {
        ...a.draft(b.userId, ''),
        type: 'image',
        extends: null,
        file_id: 0,
        file_cate: 0,
        fileName: 'pic.png',
        fileSize: png.length,
      };
      const form = new FormData();
      if (order === 'before') form.append('message', JSON.stringify(message));
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'pic.png');
      if (order === 'after') form.append('message', JSON.stringify(message));
      const res = await fetch(`${server.url}/common/upload/uploadFile`, {
        method: 'POST',
        body: form,
        headers: { authorization: a.token, 'accept-language': 'undefined' },
      });
      const answer = (await res.json()) as { code: number; msg: string; data: unknown };
      expect(answer.code, `${order}: ${answer.msg}`).toBe(0);
      expect(answer.data).toMatchObject({ id: message.id, type: 'image', toContactId: b.userId });
      const got = await b.socket!.waitFor((f) => f.type === 'simple' && f.data.id === message.id);
      expect(got.data.content).toMatch(/^\/storage\//);
    }
  });

  it('an upload whose message holds U+0000 is refused as sendMessage refuses it, before anything is sent', async () => {
    const a = await online('nula');
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#663399' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'pic.png');
    form.append('message', JSON.stringify({ ...a.draft(-1, 'a\u0000b'), type: 'image', extends: null }));
    const res = await fetch(`${server.url}/common/upload/uploadFile`, {
      method: 'POST',
      body: form,
      headers: { authorization: a.token },
    });
    const answer = (await res.json()) as { code: number; data: { fields?: string[] } | null };
    expect([res.status, answer.code, answer.data?.fields]).toEqual([200, 400, ['content']]);
  });

  it('a client that names no language (accept-language: undefined) is answered in Chinese and keeps the language it chose', async () => {
    const who = await person('nolang');
    const undefinedLang = { 'content-type': 'application/json', 'accept-language': 'undefined' };
    const refused = await server.post(
      '/common/Pub/login',
      { account: who.account, password: 'wrong-one' },
      undefinedLang,
    );
    expect(refused.json.msg).toBe('账号或密码错误');
    // Signed in once in French, then by the client that names none: notices stay in French.
    const fr = await server.post(
      '/common/Pub/login',
      { account: who.account, password: who.password },
      { 'content-type': 'application/json', 'accept-language': 'fr-FR' },
    );
    expect(fr.json.code).toBe(0);
    const again = await server.post(
      '/common/Pub/login',
      { account: who.account, password: who.password },
      undefinedLang,
    );
    expect(again.json.code).toBe(0);
    const token = again.json.data.authToken;
    await server.post('/enterprise/im/getContacts', {}, { ...undefinedLang, authorization: token });
    const stored = await server.ctx.repos.users.byId(who.userId);
    expect(stored?.language).toBe('fr');
  });

  it('a cold start without a session answers -1 with an empty list, which the mobile client sorts', async () => {
    const res = await server.post('/enterprise/im/getContacts', {}, { 'content-type': 'application/json' });
    expect(res.json).toMatchObject({ code: -1, data: [] });
  });

  /** A picture the server serves: 200, an image type, and a picture indeed. */
  async function served(url: string): Promise<void> {
    const res = await fetch(new URL(url, server.url));
    expect([url, res.status, res.headers.get('content-type')]).toEqual([
      url,
      200,
      expect.stringMatching(/^image\/(png|webp)$/),
    ]);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta.width).toBeGreaterThan(0);
  }

  it('no avatar is empty: people, groups and notices without a picture name a served one, as the original did (point 2)', async () => {
    const [a, b, c] = [await online('pa'), await online('pb'), await online('pc')];
    await befriend(a, b);
    await befriend(a, c);
    // My QR code page draws my avatar on a canvas: it must load.
    const me = await a.post('common/Pub/checkuser', {});
    expect(me.data.avatar).toBe(PICTURES.person);
    const groupId = await group(a, b, c);
    const contacts = await a.post('enterprise/im/getContacts');
    for (const row of contacts.data) expect(row.avatar, String(row.id)).not.toBe('');
    expect(contacts.data.find((r: any) => r.id === b.userId).avatar).toBe(PICTURES.person);
    expect(contacts.data.find((r: any) => r.id === 'admin_notice').avatar).toBe(PICTURES.notice);
    expect(contacts.data.find((r: any) => r.id === -1).avatar).toBe(PICTURES.files);
    const members = await a.post('enterprise/group/groupUserList', { group_id: groupId, limit: 0 });
    for (const m of members.data) expect(m.userInfo.avatar).toBe(PICTURES.person);
    const info = await a.post('enterprise/group/groupInfo', { group_id: groupId });
    expect(info.data.avatar).not.toBe('');
    await served(info.data.avatar);
    // A friend request's notice names its sender with a picture too.
    const d = await online('pd');
    expect((await d.post('enterprise/friend/add', { user_id: a.userId, remark: 'hi' })).code).toBe(0);
    const notice = await a.socket!.waitFor((f) => f.type === 'simple' && f.data.fromUser.id === 'system');
    expect(notice.data.fromUser.avatar).toBe(PICTURES.notice);
    for (const url of Object.values(PICTURES)) await served(url);
  });

  it('an account made before stand-ins existed gets one from the migration', async () => {
    const who = await person('legacy');
    await server.ctx.db.updateTable('users').set({ avatar: '' }).where('id', '=', who.userId).execute();
    await defaultAvatars().up(server.ctx.db as never);
    expect((await server.ctx.repos.users.byId(who.userId))?.avatar).toBe(PICTURES.person);
  });

  it('getSystemInfo names a served logo and a Discover entry the client can draw, in its language (points 5, 8)', async () => {
    const noLanguage = { 'content-type': 'application/json', 'accept-language': 'undefined' };
    const zh = (await server.post('/common/Pub/getSystemInfo', {}, noLanguage)).json.data;
    expect(zh.sysInfo.logo).toBe(PICTURES.logo);
    await served(zh.sysInfo.logo);
    const moments = zh.compass.list.find((e: any) => e.url === MOMENTS_PAGE);
    expect(moments).toMatchObject({ name: '朋友圈', icon: PICTURES.moments, type: 1 });
    await served(moments.icon);
    const en = (await server.post('/common/Pub/getSystemInfo', {}, { 'accept-language': 'en-US' })).json.data;
    expect(en.compass.list.find((e: any) => e.url === MOMENTS_PAGE).name).toBe('Moments');
    // What an operator sets is sent as set: their logo, their entries, their own icon for Moments.
    const admin = new AdminService(server.ctx.repos, server.ctx.config, server.clock.now);
    const set = (key: string, value: unknown) => admin.site.setConfig(key, value);
    await set('sysInfo.logo', 'https://cdn.example.com/logo.png');
    await set('compass.list', [
      { icon: 'https://cdn.example.com/m.png', name: 'moments', type: 1, url: MOMENTS_PAGE },
      { icon: 'https://cdn.example.com/w.png', name: '官网', type: 2, url: 'https://example.com' },
    ]);
    try {
      const mine = (await server.post('/common/Pub/getSystemInfo', {}, noLanguage)).json.data;
      expect(mine.sysInfo.logo).toBe('https://cdn.example.com/logo.png');
      expect(mine.compass.list).toEqual([
        { icon: 'https://cdn.example.com/m.png', name: '朋友圈', type: 1, url: MOMENTS_PAGE },
        { icon: 'https://cdn.example.com/w.png', name: '官网', type: 2, url: 'https://example.com' },
      ]);
    } finally {
      await set('sysInfo.logo', '');
      await set('compass.list', DEFAULT_GLOBAL_CONFIG.compass.list);
    }
  });

  it('getContacts lists one is_group 2 row, as the original did; friend requests travel beside it (point 6)', async () => {
    const [a, b] = [await online('ca'), await online('cb')];
    const sparrow = await TestSocket.bound(server, a.userId, a.token);
    expect((await b.post('enterprise/friend/add', { user_id: a.userId, remark: '加个好友' })).code).toBe(0);
    // The old socket is told of the request without a row to list; Sparrow's socket with it.
    const old = await a.socket!.waitFor((f) => f.type === 'simple' && f.data.fromUser.id === 'system');
    expect(old.data.contactInfo).toBeUndefined();
    const mine = await sparrow.waitFor((f) => f.type === 'simple' && f.data.fromUser.id === 'system');
    expect(mine.data.contactInfo).toMatchObject({ id: 'system', unread: 1 });
    sparrow.close();
    const contacts = await a.post('enterprise/im/getContacts');
    expect(contacts.data.filter((r: any) => r.is_group === 2).map((r: any) => r.id)).toEqual(['admin_notice']);
    expect(contacts.count).toBe(1);
    expect(contacts.system).toMatchObject({ id: 'system', is_group: 2, unread: 1, avatar: PICTURES.notice });
    // Its row is still the one getContactInfo answers for it.
    const info = await a.post('enterprise/im/getContactInfo', { id: 'system' });
    expect(info.data).toMatchObject({ id: 'system', unread: 1 });
  });

  describe('scanning codes as the mobile client does (point 9)', () => {
    /** `common/scan.js`: the scanned URL less the API base, posted as JSON with its last segment as realToken. */
    const scan = async (who: OldWebClient, url: string) => {
      const path = new URL(url).pathname;
      const realToken = path.split('/').at(-1);
      return (await server.post(path, { realToken }, { authorization: who.token })).json;
    };
    const json = async (who: OldWebClient, path: string, body: Record<string, unknown>) =>
      (await server.post(`/${path}`, body, { authorization: who.token })).json;

    it("a person's code opens their profile; a browser opening it gets Sparrow's page for it", async () => {
      const [a, b] = [await online('sa'), await online('sb')];
      const code = (await b.post('common/Pub/checkuser', {})).data.qrUrl as string;
      expect(code).toMatch(/\/scan\/u\/[^/]+$/);
      const res = await scan(a, code);
      expect(res.code, res.msg).toBe(0);
      expect(res.data).toMatchObject({ action: 'userInfo', id: b.userId, user_id: b.userId, is_friend: 0 });
      // pages/contacts/detail?id= then reads the profile and asks to be friends.
      expect((await json(a, 'enterprise/im/getUserInfo', { user_id: res.data.id })).code).toBe(0);
      // Opened in a browser: Sparrow's page for the code, beside the scan path.
      const page = await fetch(`${server.url}${new URL(code).pathname}`, { redirect: 'manual' });
      expect(page.status).toBe(302);
      const token = parseQrLink(code)!.token;
      expect(page.headers.get('location')).toBe(`../../#/pages/index/myqrcode?token=${encodeURIComponent(token)}`);
      expect(new URL(page.headers.get('location')!, code).href).toBe(
        `${new URL(code).origin}/#/pages/index/myqrcode?token=${encodeURIComponent(token)}`,
      );
      // A group's code is not a person's, a forged one is nobody's, and no session is no session.
      const forged = await scan(a, `${server.url}/scan/u/${token.slice(0, -2)}xx`);
      expect(forged.code).toBe(400);
      const anonymous = await server.post(new URL(code).pathname, { realToken: token });
      expect(anonymous.json.code).toBe(-1);
    });

    it('a group code: the scanner sees the group by its id, joins it without the token, and no one else can', async () => {
      const [owner, m, guest, stranger] = [
        await online('go'),
        await online('gm'),
        await online('gg'),
        await online('gs'),
      ];
      const x = await online('gx');
      await befriend(owner, m);
      await befriend(owner, x);
      const groupId = await group(owner, m, x);
      const code = (await owner.post('enterprise/group/groupInfo', { group_id: groupId })).data.qrUrl as string;
      expect(code).toMatch(/\/scan\/g\/[^/]+$/);
      // Before scanning, the group is not there for them; joining without a token says only that it is missing.
      const unknown = await json(guest, 'enterprise/group/groupInfo', { group_id: 'group-999999' });
      const before = await json(guest, 'enterprise/group/groupInfo', { group_id: groupId });
      expect([before.code, before.msg]).toEqual([unknown.code, unknown.msg]);
      const noToken = await json(stranger, 'enterprise/group/joinGroup', { group_id: groupId });
      expect([noToken.code, noToken.data.fields]).toEqual([400, ['token']]);

      const scanned = await scan(guest, code);
      expect(scanned.code, scanned.msg).toBe(0);
      expect(scanned.data).toMatchObject({ action: 'groupInfo', id: groupId, name: '老客户端群', isJoin: 0 });
      // pages/message/group/info: name, picture, size, and whether codes admit; not the notice or the code.
      const info = await json(guest, 'enterprise/group/groupInfo', { group_id: groupId });
      expect(info.code, info.msg).toBe(0);
      expect(info.data).toMatchObject({
        id: groupId,
        name: '老客户端群',
        isJoin: 0,
        groupUserCount: 3,
        notice: '',
        qrUrl: '',
        owner_id: 0,
        create_time: 0,
      });
      expect(info.data.setting.invite).toBe(1);
      expect(info.data.avatar).not.toBe('');
      // Their scan is theirs: someone who did not scan still sees nothing.
      expect((await json(stranger, 'enterprise/group/groupInfo', { group_id: groupId })).code).toBe(before.code);
      // The join button posts group_id and an inviteUid it does not have; sent twice at once, it joins once.
      const joins = await Promise.all([
        json(guest, 'enterprise/group/joinGroup', { group_id: groupId }),
        json(guest, 'enterprise/group/joinGroup', { group_id: groupId }),
      ]);
      expect(joins.map((j) => j.code).sort()).toEqual([0, 400]);
      const members = await json(owner, 'enterprise/group/groupUserList', { group_id: groupId, limit: 0 });
      expect(members.data.filter((r: any) => r.user_id === guest.userId)).toHaveLength(1);
      expect((await json(guest, 'enterprise/im/sendMessage', guest.draft(groupId, '扫码进来了'))).code).toBe(0);
    });

    it('a code revoked after the scan admits no one by that scan', async () => {
      const [owner, m, y, late] = [await online('ro'), await online('rm'), await online('ry'), await online('rl')];
      await befriend(owner, m);
      await befriend(owner, y);
      const groupId = await group(owner, m, y);
      const code = (await owner.post('enterprise/group/groupInfo', { group_id: groupId })).data.qrUrl as string;
      expect((await scan(late, code)).code).toBe(0);
      expect((await owner.post('enterprise/group/resetQrcode', { group_id: groupId })).code).toBe(0);
      const info = await json(late, 'enterprise/group/groupInfo', { group_id: groupId });
      expect(info.code).not.toBe(0);
      const join = await json(late, 'enterprise/group/joinGroup', { group_id: groupId });
      expect([join.code, join.data.fields]).toEqual([400, ['token']]);
      // The old code itself is refused at the scan path too.
      expect((await scan(late, code)).code).toBe(400);
    });

    it("codes printed before keep working in Sparrow's scanner", () => {
      const old = `${server.url}/#/pages/index/qqrcode?token=g3.99.sig`;
      expect(parseQrLink(old)).toEqual({ base: server.url, kind: 'group', token: 'g3.99.sig' });
      expect(parseQrLink(`${server.url}/scan/g/g3.99.sig`)).toEqual({
        base: server.url,
        kind: 'group',
        token: 'g3.99.sig',
      });
    });
  });

  it('a merged record (Sparrow’s) reaches an old socket as a text of its title, private and in a group', async () => {
    const old = await online('oldrec');
    const other = new OldWebClient(server, await person('newrec'));
    await other.login();
    const third = new OldWebClient(server, await person('thirdrec'));
    await third.login();
    await befriend(old, other);
    await befriend(other, third);
    const gid = await group(other, old, third);
    const said = await other.post('enterprise/im/sendMessage', other.draft(old.userId, '记录里的话'));
    expect(said.code, said.msg).toBe(0);
    const sparrow = await TestSocket.bound(server, other.userId, other.token);
    const merged = await server.call(
      'forwardMessages',
      { msg_ids: [said.data.msg_id], user_ids: [old.userId, gid], mode: 'merge' },
      { token: other.token, lang: null },
    );
    expect(merged.code, merged.msg).toBe(0);
    const title = `${other.who.account}和${old.who.account}的聊天记录`;
    for (const type of ['simple', 'group'] as const) {
      const got = await old.socket!.waitFor((f) => f.type === type && f.data.content === `[聊天记录] ${title}`);
      expect(got.data).toMatchObject({ type: 'text', extends: {} });
    }
    // Sparrow's own socket of the sender gets the record as it is.
    const own = await sparrow.waitFor((f) => f.type === 'simple' && f.data.type === 'record');
    expect(own.data.extends).toMatchObject({ title, count: 1, source: 'private' });
    // Over HTTP too: the old client's history and sync hold the text, Sparrow's client the record.
    const history = await old.post('enterprise/im/getMessageList', { toContactId: other.userId, is_group: 0 });
    const shown = history.data.find((m: any) => m.msg_id === own.data.msg_id);
    expect(shown).toMatchObject({ type: 'text', content: `[聊天记录] ${title}`, extends: {} });
    const synced = await old.post('enterprise/im/sync', { after_id: said.data.msg_id });
    expect(synced.data.filter((m: any) => m.type === 'record')).toEqual([]);
    const asSparrow = await server.call(
      'getMessageList',
      { toContactId: other.userId, is_group: 0 },
      { token: old.token },
    );
    expect(asSparrow.data.find((m: any) => m.msg_id === own.data.msg_id).type).toBe('record');
    sparrow.close();
    old.socket!.close();
  });

  it('a group robot’s and a bot’s messages reach an old client as texts of a sender it can draw', async () => {
    const old = await online('oldbot');
    const owner = new OldWebClient(server, await person('ownbot'));
    await owner.login();
    const third = new OldWebClient(server, await person('thirdbot'));
    await third.login();
    await befriend(owner, old);
    await befriend(owner, third);
    const gid = await group(owner, old, third);
    const robot = await server.call('groupRobotAdd', { group_id: gid, name: '构建通知' }, { token: owner.token });
    expect(robot.code, robot.msg).toBe(0);
    const { pathname, search } = new URL(robot.data.url as string);
    const posted = await server.post(`${pathname}${search}`, {
      msgtype: 'markdown',
      markdown: { content: '**构建成功** [详情](https://ci.example/1)' },
    });
    expect(posted.json).toMatchObject({ errcode: 0 });
    const pushed = await old.socket!.waitFor((f) => f.type === 'group' && f.data.content.startsWith('**构建成功**'));
    expect(pushed.data).toMatchObject({
      type: 'text',
      toContactId: gid,
      fromUser: { id: robot.data.user_id, displayName: '构建通知', avatar: '/static/img/robot.png' },
    });
    // The served stand-in the old client draws as it draws any avatar.
    expect((await server.get('/static/img/robot.png')).status).toBe(200);

    // A bot, befriended by asking, answers the old client as any friend does.
    const bot = await server.call('botCreate', { name: '回声' }, { token: owner.token });
    expect(bot.code, bot.msg).toBe(0);
    expect((await old.post('enterprise/friend/add', { user_id: bot.data.id, remark: '' })).code).toBe(0);
    const said = await server.call(
      'sendMessage',
      { id: crypto.randomUUID(), toContactId: old.userId, type: 'text', content: '你好' },
      { token: `Bearer ${bot.data.token}` },
    );
    expect(said.code, said.msg).toBe(0);
    const got = await old.socket!.waitFor((f) => f.type === 'simple' && f.data.content === '你好');
    expect(got.data).toMatchObject({ type: 'text', fromUser: { id: bot.data.id, displayName: '回声' } });
    const contacts = await old.post('enterprise/im/getContacts', {});
    expect(contacts.data.some((c: any) => c.id === bot.data.id)).toBe(true);
    old.socket!.close();
  });

  it('an edited text reaches an old socket as updateMessage; reactions do not reach it at all', async () => {
    const old = await online('oldedit');
    const other = new OldWebClient(server, await person('newedit'));
    await other.login();
    await befriend(old, other);
    const said = await other.post('enterprise/im/sendMessage', other.draft(old.userId, '三点开会'));
    expect(said.code, said.msg).toBe(0);
    const sparrow = await TestSocket.bound(server, old.userId, old.token);
    const reacted = await server.call(
      'reactMessage',
      { id: said.data.msg_id, emoji: '👍', on: 1 },
      { token: other.token },
    );
    expect(reacted.code, reacted.msg).toBe(0);
    const edited = await server.call(
      'editMessage',
      { id: said.data.msg_id, content: '四点开会' },
      { token: other.token },
    );
    expect(edited.code, edited.msg).toBe(0);
    const update = await old.socket!.waitFor((f) => f.type === 'updateMessage');
    expect(update.data).toEqual({ id: said.data.id, type: 'text', content: '四点开会' });
    // Sparrow's socket of the same person gets the delta and the edit in Sparrow's shape.
    await sparrow.waitFor((f) => f.type === 'reaction' && f.data.msg_id === said.data.msg_id);
    await sparrow.waitFor((f) => f.type === 'editMessage' && f.data.content === '四点开会');
    await sleep(QUIET_MS);
    expect(old.socket!.frames.filter((f) => f.type === 'reaction' || f.type === 'editMessage')).toEqual([]);
    // The history it reads again shows the new text; the fields it does not know are beside it.
    const page = await old.post('enterprise/im/getMessageList', { toContactId: other.userId, is_group: 0, page: 1 });
    expect(page.data.find((m: any) => m.msg_id === said.data.msg_id)).toMatchObject({ content: '四点开会' });
    sparrow.close();
    old.socket!.close();
  });

  it('group read receipts do not reach an old socket, while a Sparrow socket of the same person is told', async () => {
    const old = await online('oldrcpt');
    const reader = new OldWebClient(server, await person('rdrrcpt'));
    await reader.login();
    const third = await online('thirdrcpt');
    await befriend(old, reader);
    await befriend(old, third);
    const gid = await group(old, reader, third);
    const said = await old.post('enterprise/im/sendMessage', old.draft(gid, '周报', { is_group: 1 }));
    expect(said.code, said.msg).toBe(0);
    const sparrow = await TestSocket.bound(server, old.userId, old.token);
    const read = await reader.post('enterprise/im/setMsgIsRead', {
      toContactId: gid,
      is_group: 1,
      msg_id: said.data.msg_id,
    });
    expect(read.code, read.msg).toBe(0);
    await sparrow.waitFor((f) => f.type === 'readReceipt' && f.data.msg_id === said.data.msg_id);
    await sleep(QUIET_MS);
    expect(old.socket!.frames.filter((f) => f.type === 'readReceipt')).toEqual([]);
    sparrow.close();
    old.socket!.close();
    third.socket!.close();
  });

  it("a call with a Sparrow client: the old call screen gets the original signals, not Sparrow's camera off", async () => {
    const old = await online('oldcam');
    const other = new OldWebClient(server, await person('newcam'));
    await other.login();
    await befriend(old, other);
    const sparrow = await TestSocket.bound(server, other.userId, other.token);
    const id = randomUUID();
    const call = (from: OldWebClient, to: OldWebClient, body: Record<string, unknown>) =>
      from.post('enterprise/im/sendToMsg', { id, toContactId: to.userId, type: 1, ...body });
    expect((await call(other, old, { event: 'calling' })).code).toBe(0);
    await old.socket!.waitFor((f) => f.type === 'webrtc' && f.data.extends.event === 'calling');
    expect((await call(old, other, { event: 'acceptRtc' })).code).toBe(0);
    await sparrow.waitFor((f) => f.type === 'webrtc' && f.data.extends.event === 'acceptRtc');
    expect((await call(other, old, { event: 'camera', camera: 0 })).code).toBe(0);
    expect((await call(other, old, { event: 'offer', sdp: 'v=0' })).code).toBe(0);
    await old.socket!.waitFor((f) => f.type === 'webrtc' && f.data.extends.event === 'offer');
    expect(old.socket!.frames.filter((f) => f.type === 'webrtc').map((f) => f.data.extends.event)).toEqual([
      'calling',
      'offer',
    ]);
    expect((await call(old, other, { event: 'hangup', code: 906 })).code).toBe(0);
    sparrow.close();
    old.socket!.close();
  });

  it('offline after the socket closes: contacts were told by the close, the call is acknowledged for oneself only', async () => {
    const [a, b] = [await online('oa'), await online('ob')];
    await befriend(a, b);
    const from = a.socket!.frames.length;
    b.socket!.close();
    const gone = await a.socket!.waitFor((f) => f.type === 'isOnline' && f.data.id === b.userId, 3000, from);
    expect(gone.data.is_online).toBe(0);
    const ack = await b.post('common/pub/offline', { user_id: b.userId });
    expect([ack.code, ack.data]).toEqual([0, null]);
    // Someone else's id is not the caller's to declare offline; without a session, nothing is.
    expect((await b.post('common/pub/offline', { user_id: a.userId })).code).toBe(403);
    const anonymous = await server.post('/common/pub/offline', qs.stringify({ user_id: b.userId }), {
      'content-type': FORM,
    });
    expect(anonymous.json.code).toBe(-1);
    // The close was told once; the acknowledgement tells no one again.
    await sleep(QUIET_MS);
    expect(a.socket!.frames.slice(from).filter((f) => f.type === 'isOnline' && f.data.id === b.userId)).toHaveLength(1);
  });

  it("im/setting: the web client's settings dialog saves its whole object, read back in userInfo.setting", async () => {
    const a = await online('sa');
    const setting = {
      theme: 'default',
      isVoice: true,
      sendKey: 1,
      avatarCricle: false,
      hideMessageName: false,
      hideMessageTime: true,
    };
    const saved = await a.post('enterprise/im/setting', setting);
    expect([saved.code, saved.data]).toEqual([0, null]);
    // It reads them back at its next start, flags as booleans; a later save changes what it names.
    expect((await a.post('common/Pub/checkuser', {})).data.setting).toMatchObject(setting);
    expect((await a.post('enterprise/im/setting', { sendKey: 2, isVoice: false })).code).toBe(0);
    const after = await a.post('common/Pub/checkuser', {});
    expect(after.data.setting).toMatchObject({ ...setting, sendKey: 2, isVoice: false, voiceStatus: true });
    expect((await a.post('enterprise/im/setting', { ...setting, sendKey: 9 })).data.fields).toEqual(['sendKey']);
    expect((await a.post('enterprise/im/setting', {})).code).toBe(400);
    const anonymous = await server.post('/enterprise/im/setting', qs.stringify(setting), { 'content-type': FORM });
    expect(anonymous.json.code).toBe(-1);
  });

  it('setNoSpeak with noSpeakDay, as the mobile client mutes a member: 1 is a day, 0 lifts', async () => {
    const [owner, b, c] = [await online('no'), await online('nb'), await online('nc')];
    for (const other of [b, c]) await befriend(owner, other);
    const groupId = await group(owner, b, c);
    const json = async (who: OldWebClient, path: string, body: Record<string, unknown>) =>
      (await server.post(`/${path}`, body, { authorization: who.token })).json;

    let from = b.socket!.frames.length;
    const muted = await json(owner, 'enterprise/group/setNoSpeak', { id: groupId, user_id: b.userId, noSpeakDay: 1 });
    expect(muted.code, muted.msg).toBe(0);
    const push = await b.socket!.waitFor((f) => f.type === 'setNoSpeak', 3000, from);
    expect(push.data).toMatchObject({ group_id: groupId, user_id: b.userId });
    expect(push.data.no_speak_until).toBe(server.clock.now() + 86_400_000);
    const refused = await b.post('enterprise/im/sendMessage', b.draft(groupId, '我被禁言了吗'));
    expect(refused.code).toBe(401);

    from = b.socket!.frames.length;
    const lifted = await json(owner, 'enterprise/group/setNoSpeak', { id: groupId, user_id: b.userId, noSpeakDay: 0 });
    expect(lifted.code, lifted.msg).toBe(0);
    expect((await b.socket!.waitFor((f) => f.type === 'setNoSpeak', 3000, from)).data.no_speak_until).toBe(0);
    expect((await b.post('enterprise/im/sendMessage', b.draft(groupId, '可以说话了'))).code).toBe(0);

    // Longer than Sparrow's longest mute, or no length at all, names the field.
    const week = await json(owner, 'enterprise/group/setNoSpeak', { id: groupId, user_id: b.userId, noSpeakDay: 7 });
    expect([week.code, week.data.fields]).toEqual([400, ['noSpeakDay']]);
    const none = await json(owner, 'enterprise/group/setNoSpeak', { id: groupId, user_id: b.userId });
    expect([none.code, none.data.fields]).toEqual([400, ['noSpeakTimer']]);
    // A member cannot mute by days any more than by the timer.
    const byMember = await json(b, 'enterprise/group/setNoSpeak', {
      id: groupId,
      user_id: owner.userId,
      noSpeakDay: 1,
    });
    expect(byMember.code).toBe(403);
  });

  it('read receipts live: an old socket is told which messages were read, whole; a Sparrow socket up to where', async () => {
    const [a, b] = [await online('rr'), await online('rs')];
    await befriend(a, b);
    const login = await server.call('login', { account: a.who.account, password: a.who.password });
    const sparrow = await TestSocket.bound(server, a.userId, login.data.authToken);
    const first = a.draft(b.userId, '一');
    const second = a.draft(b.userId, '<i>二</i>');
    const sent = [];
    for (const d of [first, second]) sent.push((await a.post('enterprise/im/sendMessage', d)).data);
    await b.socket!.waitFor((f) => f.type === 'simple' && f.data.id === second.id);

    const fromA = a.socket!.frames.length;
    const fromSparrow = sparrow.frames.length;
    const opened = await b.post('enterprise/im/setMsgIsRead', {
      is_group: 0,
      toContactId: a.userId,
      messages: [first, second],
      fromUser: a.userId,
    });
    expect(opened.code, opened.msg).toBe(0);
    const old = await a.socket!.waitFor((f) => f.type === 'isRead', 3000, fromA);
    expect(old.data).toEqual([
      expect.objectContaining({ id: first.id, msg_id: sent[0].msg_id, content: '一', is_read: 1 }),
      expect.objectContaining({ id: second.id, msg_id: sent[1].msg_id, content: '二', is_read: 1 }),
    ]);
    const own = await sparrow.waitFor((f) => f.type === 'isRead', 3000, fromSparrow);
    expect(own.data).toEqual({ toContactId: b.userId, msg_id: sent[1].msg_id });

    // Reading again covers nothing new: Sparrow hears where the mark is, the old client nothing to mark.
    const again = a.socket!.frames.length;
    expect((await b.post('enterprise/im/setMsgIsRead', { is_group: 0, toContactId: a.userId })).code).toBe(0);
    await sparrow.waitFor((f) => f.type === 'isRead', 3000, fromSparrow + 1);
    await sleep(QUIET_MS);
    expect(a.socket!.frames.slice(again).filter((f) => f.type === 'isRead')).toEqual([]);
    sparrow.close();
  });

  it("announcements: old sockets get a simple message to admin_notice; getAdminNotice answers the original's empty notice", async () => {
    const reader = await online('an');
    const none = await reader.post('enterprise/im/getAdminNotice');
    expect(none.code).toBe(0);
    expect(none.data).toMatchObject({ title: '', create_time: 0 });

    const admin = await person('an_admin');
    await new AdminService(server.ctx.repos, server.ctx.config, server.clock.now).users.setRole(admin.account, 'admin');
    const sparrow = await TestSocket.bound(server, reader.userId, reader.token);
    const fromOld = reader.socket!.frames.length;
    const published = await server.call(
      'manageNoticePublish',
      { title: '今晚维护', notice: '23:00 重启' },
      { token: (await server.call('login', { account: admin.account, password: admin.password })).data.authToken },
    );
    expect(published.code, published.msg).toBe(0);
    const pushed = await reader.socket!.waitFor(
      (f) => f.type === 'simple' && f.data.toContactId === 'admin_notice',
      3000,
      fromOld,
    );
    expect(pushed.data).toMatchObject({
      id: expect.any(String),
      msg_id: expect.any(Number),
      type: 'text',
      is_group: 2,
      status: 'succeed',
      content: '今晚维护',
      sendTime: server.clock.now(),
      extends: { title: '今晚维护', notice: '23:00 重启' },
      fromUser: { id: 'admin_notice', displayName: expect.any(String), avatar: expect.any(String) },
    });
    expect(reader.socket!.frames.slice(fromOld).filter((f) => f.type === 'adminNotice')).toEqual([]);
    // Sparrow's own client keeps its adminNotice.
    const own = await sparrow.waitFor((f) => f.type === 'adminNotice');
    expect(own.data).toMatchObject({ title: '今晚维护', notice: '23:00 重启' });
    sparrow.close();
    // The home page's bar: title and notice, keyed by create_time (ms, docs/protocol.md §1 Times).
    const newest = await reader.post('enterprise/im/getAdminNotice');
    expect(newest.data).toMatchObject({ title: '今晚维护', notice: '23:00 重启', create_time: server.clock.now() });
    // The admin_notice contact the push is filed under is listed.
    const row = (await reader.post('enterprise/im/getContacts')).data.find((c: any) => c.id === 'admin_notice');
    expect(row).toMatchObject({ is_group: 2, is_notice: 1 });
  });

  it('groupInfo and groupuserlist carry the fields the old clients read beside Sparrow’s', async () => {
    const [owner, b, c] = [await online('gi'), await online('gj'), await online('gk')];
    await befriend(owner, b);
    await befriend(owner, c);
    const groupId = await group(owner, b, c);
    // The web client's group settings: "(groupUserCount)" and "群主：ownerName".
    const info = await b.post('enterprise/group/groupInfo', { group_id: groupId });
    expect(info.data).toMatchObject({
      id: groupId,
      name: '老客户端群',
      groupUserCount: 3,
      member_count: 3,
      ownerName: owner.who.account,
      isJoin: 3,
      qrUrl: expect.any(String),
      setting: expect.any(Object),
    });
    // The mobile member list shows a mute's end from no_speak_time, in seconds.
    expect(
      (await owner.post('enterprise/group/setNoSpeak', { id: groupId, user_id: c.userId, noSpeakTimer: 2 })).code,
    ).toBe(0);
    const list = await b.post('enterprise/group/groupuserlist', { group_id: groupId });
    const muted = list.data.find((m: any) => m.user_id === c.userId);
    expect(muted.no_speak_until).toBe(server.clock.now() + 3_600_000);
    expect(muted.no_speak_time).toBe(Math.ceil(muted.no_speak_until / 1000));
    for (const m of list.data.filter((x: any) => x.user_id !== c.userId)) expect(m.no_speak_time).toBe(0);
  });

  it('a group text without clientId is not echoed to the sender’s own old socket', async () => {
    const [a, b, c] = [await online('ea'), await online('eb'), await online('ec')];
    await befriend(a, b);
    await befriend(a, c);
    const groupId = await group(a, b, c);
    await a.post('common/pub/bindGroup', { client_id: a.socket!.clientId, group_id: groupId });
    const from = a.socket!.frames.length;
    const draft = a.draft(groupId, '群里说一句');
    expect((await a.post('enterprise/im/sendMessage', draft)).code).toBe(0);
    for (const other of [b, c]) await other.socket!.waitFor((f) => f.type === 'group' && f.data.id === draft.id);
    await sleep(QUIET_MS);
    expect(a.socket!.frames.slice(from).filter((f) => f.data?.id === draft.id)).toEqual([]);
  });

  it('getContactInfo as a form body: the id arrives as text, a user or a group', async () => {
    const [a, b, c] = [await online('ci'), await online('cj'), await online('ck')];
    await befriend(a, b);
    await befriend(a, c);
    const user = await a.post('enterprise/im/getContactInfo', { id: b.userId });
    expect(user.code, user.msg).toBe(0);
    expect(user.data).toMatchObject({ id: b.userId, user_id: b.userId, is_group: 0, displayName: b.who.account });
    const groupId = await group(a, b, c);
    const grp = await b.post('enterprise/im/getContactInfo', { id: groupId });
    expect(grp.code, grp.msg).toBe(0);
    expect(grp.data).toMatchObject({ id: groupId, is_group: 1, displayName: '老客户端群', role: 3 });
  });

  it('a normal session’s other calls: searchUser, readAtMsg, delChat, updateUserInfo, editPassword', async () => {
    const [a, b, c] = [await online('sa'), await online('sb'), await online('sc')];
    // The add-friend dialog lists what searchUser finds by account: avatar, realname, account (masked
    // to a stranger, as Sparrow masks it everywhere), and opens the profile by user_id.
    const found = await a.post('enterprise/im/searchUser', { keywords: b.who.account });
    expect(found.code, found.msg).toBe(0);
    expect(found.data).toEqual([
      expect.objectContaining({
        user_id: b.userId,
        realname: b.who.account,
        account: expect.stringMatching(/\*{6}/),
        avatar: expect.any(String),
      }),
    ]);
    await befriend(a, b);
    await befriend(a, c);

    // readAtMsg clears the "someone @'d you" count of a group.
    const groupId = await group(a, b, c);
    expect((await a.post('enterprise/im/sendMessage', a.draft(groupId, '@sb 看一下', { at: [b.userId] }))).code).toBe(
      0,
    );
    const before = (await b.post('enterprise/im/getContacts')).data.find((x: any) => x.id === groupId);
    expect(before.is_at).toBe(1);
    expect((await b.post('enterprise/im/readAtMsg', { toContactId: groupId })).code).toBe(0);
    expect((await b.post('enterprise/im/getContacts')).data.find((x: any) => x.id === groupId).is_at).toBe(0);

    // delChat takes the conversation off my chat list (the rows with a lastContent), until the next message.
    expect((await a.post('enterprise/im/sendMessage', a.draft(b.userId, '在吗'))).code).toBe(0);
    expect((await b.post('enterprise/im/delChat', { id: a.userId, is_group: 0 })).code).toBe(0);
    expect(
      (await b.post('enterprise/im/getContacts')).data.find((x: any) => x.id === a.userId)?.lastContent ?? '',
    ).toBe('');
    expect((await a.post('enterprise/im/sendMessage', a.draft(b.userId, '在吗？'))).code).toBe(0);
    expect((await b.post('enterprise/im/getContacts')).data.find((x: any) => x.id === a.userId).lastContent).not.toBe(
      '',
    );

    // The settings page saves all four fields; the profile reads them back.
    const saved = await a.post('enterprise/im/updateUserInfo', {
      realname: '新名字',
      email: 'sa@example.com',
      sex: 1,
      motto: '你好',
    });
    expect(saved.code, saved.msg).toBe(0);
    expect((await a.post('common/Pub/checkuser')).data).toMatchObject({
      realname: '新名字',
      email: 'sa@example.com',
      sex: 1,
      motto: '你好',
    });

    // editPassword with the original password and the unused code field empty; the toast is msg.
    const other = new OldWebClient(server, a.who);
    await other.login();
    const changed = await a.post('enterprise/im/editPassword', {
      password: 'newpass99',
      code: '',
      originalPassword: a.who.password,
    });
    expect(changed.code, changed.msg).toBe(0);
    expect(changed.msg).not.toBe('');
    expect((await other.post('enterprise/im/getContacts')).code).toBe(-1);
    const again = new OldWebClient(server, { ...a.who, password: 'newpass99' });
    await again.login();
  });

  it('clearMessage and its push, as the group page calls it', async () => {
    const [owner, b] = [await online('cm'), await online('cn')];
    const c = await online('co');
    await befriend(owner, b);
    await befriend(owner, c);
    const groupId = await group(owner, b, c);
    expect((await owner.post('enterprise/im/sendMessage', owner.draft(groupId, '要清掉的'))).code).toBe(0);
    const from = b.socket!.frames.length;
    expect((await owner.post('enterprise/group/clearMessage', { id: groupId })).code).toBe(0);
    const cleared = await b.socket!.waitFor((f) => f.type === 'clearMessage', 3000, from);
    expect(cleared.data).toEqual({ group_id: groupId });
    const history = await owner.post('enterprise/im/getMessageList', {
      toContactId: groupId,
      is_group: 1,
      page: 1,
      limit: 20,
    });
    expect(history.data.filter((m: any) => m.type !== 'event')).toEqual([]);
  });

  it('updateConfig reaches an old socket as the whole getSystemInfo object', async () => {
    const a = await online('uc');
    const from = a.socket!.frames.length;
    const name = (await a.post('common/Pub/getSystemInfo')).data.sysInfo.name;
    await server.ctx.config.set('sysInfo.name', '老客户端测试');
    try {
      const frame = await a.socket!.waitFor((f) => f.type === 'updateConfig', 3000, from);
      expect(frame.data.sysInfo).toMatchObject({
        name: '老客户端测试',
        runMode: expect.any(Number),
        multipleLogin: expect.any(Number),
      });
      expect(frame.data.chatInfo).toMatchObject({
        online: expect.any(Number),
        webrtc: expect.any(Number),
        simpleChat: expect.any(Number),
      });
      expect(frame.data.fileUpload).toMatchObject({ size: expect.any(Number), fileExt: expect.any(Array) });
    } finally {
      await server.ctx.config.set('sysInfo.name', name);
    }
  });

  it('offline on a second login when multipleLogin is off names another socket, so the old web client signs out', async () => {
    await server.ctx.config.set('sysInfo.multipleLogin', '0');
    try {
      const first = await online('ml');
      const from = first.socket!.frames.length;
      const second = new OldWebClient(server, first.who);
      await second.login();
      const told = await first.socket!.waitFor((f) => f.type === 'offline', 3000, from);
      // It signs out when the push is about itself, from another client_id, and not a phone login.
      expect(told.data).toMatchObject({ id: first.userId, isMobile: false });
      expect(told.data.client_id).not.toBe(first.socket!.clientId);
      expect((await first.post('enterprise/im/getContacts')).code).toBe(-1);
    } finally {
      await server.ctx.config.set('sysInfo.multipleLogin', '1');
    }
  });
});
