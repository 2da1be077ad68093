import sharp from 'sharp';
import { routes, type RouteName, parseQrLink } from '@sparrow/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb, signUp, startServer, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>>;
type Actor = 'owner' | 'admin' | 'member' | 'outsider' | 'removed';
const ACTORS: Actor[] = ['owner', 'admin', 'member', 'outsider', 'removed'];

/** A fresh group: owner, an admin, a member, a plain member to act upon, a removed member, an outsider. */
interface Fixture {
  gid: string;
  users: Record<Actor | 'target' | 'invitee', User>;
  token: string;
  /** A robot of the group (群机器人), which the owner added. */
  robot: number;
}

/** Expected envelope code per actor, in ACTORS order (0 = allowed). */
type Row = {
  body: (f: Fixture, actor: Actor) => Record<string, unknown>;
  expect: [number, number, number, number, number];
  upload?: true;
};

const OK = 0;
const NOT_MEMBER = 403;
const FORBIDDEN = 403;
const NOT_FOUND = 404;

/**
 * Who may do what to a group (docs/protocol.md §3 `/enterprise/group/*`). Every group route must have a
 * row: adding a route without deciding its permissions fails this suite.
 */
const MATRIX: Partial<Record<RouteName, Row>> = {
  groupAdd: {
    body: (f, a) => ({ user_ids: [f.users.invitee.userId, (a === 'owner' ? f.users.admin : f.users.owner).userId] }),
    expect: [OK, OK, OK, OK, OK],
  },
  groupInfo: { body: (f) => ({ group_id: f.gid }), expect: [OK, OK, OK, NOT_MEMBER, NOT_MEMBER] },
  groupUserList: { body: (f) => ({ group_id: f.gid }), expect: [OK, OK, OK, NOT_MEMBER, NOT_MEMBER] },
  getAllUser: { body: (f) => ({ group_id: f.gid }), expect: [OK, OK, OK, NOT_MEMBER, NOT_MEMBER] },
  getAllGroup: { body: () => ({}), expect: [OK, OK, OK, OK, OK] },
  addGroupUser: {
    body: (f) => ({ id: f.gid, user_ids: [f.users.invitee.userId] }),
    expect: [OK, OK, OK, NOT_MEMBER, NOT_MEMBER],
  },
  removeUser: {
    body: (f) => ({ id: f.gid, user_id: f.users.target.userId }),
    expect: [OK, OK, FORBIDDEN, NOT_MEMBER, NOT_MEMBER],
  },
  setManager: {
    body: (f) => ({ id: f.gid, user_id: f.users.target.userId, role: 2 }),
    expect: [OK, FORBIDDEN, FORBIDDEN, NOT_MEMBER, NOT_MEMBER],
  },
  changeOwner: {
    body: (f) => ({ id: f.gid, user_id: f.users.target.userId }),
    expect: [OK, FORBIDDEN, FORBIDDEN, NOT_MEMBER, NOT_MEMBER],
  },
  setNoSpeak: {
    body: (f) => ({ id: f.gid, user_id: f.users.target.userId, noSpeakTimer: 1 }),
    expect: [OK, OK, FORBIDDEN, NOT_MEMBER, NOT_MEMBER],
  },
  groupSetting: {
    body: (f) => ({ id: f.gid, setting: { invite: 0 } }),
    expect: [OK, OK, FORBIDDEN, NOT_MEMBER, NOT_MEMBER],
  },
  editGroupName: {
    body: (f) => ({ id: f.gid, displayName: 'Renamed' }),
    expect: [OK, OK, FORBIDDEN, NOT_MEMBER, NOT_MEMBER],
  },
  setNotice: {
    body: (f) => ({ id: f.gid, notice: '<p>hello</p>' }),
    expect: [OK, OK, FORBIDDEN, NOT_MEMBER, NOT_MEMBER],
  },
  removeGroup: { body: (f) => ({ id: f.gid }), expect: [OK, FORBIDDEN, FORBIDDEN, NOT_MEMBER, NOT_MEMBER] },
  clearMessage: { body: (f) => ({ id: f.gid }), expect: [OK, FORBIDDEN, FORBIDDEN, NOT_MEMBER, NOT_MEMBER] },
  groupInfoqq: { body: (f) => ({ token: f.token }), expect: [OK, OK, OK, OK, OK] },
  resetGroupQr: { body: (f) => ({ group_id: f.gid }), expect: [OK, OK, FORBIDDEN, NOT_MEMBER, NOT_MEMBER] },
  joinGroup: { body: (f) => ({ group_id: f.gid, token: f.token }), expect: [400, 400, 400, OK, OK] },
  updateCard: { body: (f) => ({ group_id: f.gid, nickname: 'card' }), expect: [OK, OK, OK, NOT_MEMBER, NOT_MEMBER] },
  // A group's robots: any member lists them, the owner and administrators manage them; a robot of
  // a group one is not in reads as one that does not exist.
  groupRobotList: { body: (f) => ({ group_id: f.gid }), expect: [OK, OK, OK, NOT_MEMBER, NOT_MEMBER] },
  groupRobotAdd: {
    body: (f) => ({ group_id: f.gid, name: 'CI' }),
    expect: [OK, OK, FORBIDDEN, NOT_MEMBER, NOT_MEMBER],
  },
  groupRobotEdit: {
    body: (f) => ({ robot_id: f.robot, name: 'Renamed' }),
    expect: [OK, OK, FORBIDDEN, NOT_FOUND, NOT_FOUND],
  },
  groupRobotReset: { body: (f) => ({ robot_id: f.robot }), expect: [OK, OK, FORBIDDEN, NOT_FOUND, NOT_FOUND] },
  groupRobotRemove: { body: (f) => ({ robot_id: f.robot }), expect: [OK, OK, FORBIDDEN, NOT_FOUND, NOT_FOUND] },
  uploadGroupAvatar: {
    body: (f) => ({ group_id: f.gid }),
    expect: [OK, OK, FORBIDDEN, NOT_MEMBER, NOT_MEMBER],
    upload: true,
  },
};

const GROUP_ROUTES = (Object.keys(routes) as RouteName[]).filter(
  (n) => routes[n].path.startsWith('/enterprise/group/') || n === 'updateCard' || n === 'uploadGroupAvatar',
);

it('has a permission row for every group route', () => {
  expect(GROUP_ROUTES.filter((n) => !MATRIX[n])).toEqual([]);
});

describeEachDb('group permission matrix', (target) => {
  let server: TestServer;
  let n = 0;
  let png: Buffer;

  beforeAll(async () => {
    server = await startServer(target);
    await server.ctx.config.set('sysInfo.runMode', '1');
    await server.ctx.config.set('rateLimits.anyCall.perMinute', '100000');
    png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366ff' } })
      .png()
      .toBuffer();
  });
  afterAll(async () => {
    await server.close();
  });

  let people: Fixture['users'] | undefined;
  async function fixture(): Promise<Fixture> {
    const k = ++n;
    const make = (role: string) => signUp(server, `${role}${k}g`, 'secret123', `${role}${k}`);
    people ??= {
      owner: await make('own'),
      admin: await make('adm'),
      member: await make('mem'),
      target: await make('tgt'),
      removed: await make('rem'),
      outsider: await make('out'),
      invitee: await make('inv'),
    };
    const users = people;
    const created = await server.call(
      'groupAdd',
      { user_ids: [users.admin.userId, users.member.userId, users.target.userId, users.removed.userId] },
      { token: users.owner.token },
    );
    const gid = created.data.id as string;
    expect(
      (await server.call('setManager', { id: gid, user_id: users.admin.userId, role: 2 }, { token: users.owner.token }))
        .code,
    ).toBe(0);
    expect(
      (await server.call('removeUser', { id: gid, user_id: users.removed.userId }, { token: users.owner.token })).code,
    ).toBe(0);
    const info = await server.call('groupInfo', { group_id: gid }, { token: users.owner.token });
    const token = parseQrLink(info.data.qrUrl)!.token;
    const robot = await server.call('groupRobotAdd', { group_id: gid, name: 'CI' }, { token: users.owner.token });
    return { gid, users, token, robot: robot.data.id as number };
  }

  for (const name of GROUP_ROUTES) {
    const row = MATRIX[name]!;
    it(`${name}: owner ${row.expect[0]}, admin ${row.expect[1]}, member ${row.expect[2]}, outsider ${row.expect[3]}, removed ${row.expect[4]}`, async () => {
      for (let i = 0; i < ACTORS.length; i++) {
        const actor = ACTORS[i]!;
        const f = await fixture();
        const token = f.users[actor].token;
        const body = row.body(f, actor);
        const res = row.upload
          ? (
              await server.upload(
                name,
                { name: 'a.png', bytes: png, type: 'image/png' },
                { token, fields: body as Record<string, string> },
              )
            ).json
          : await server.call(name, body, { token });
        expect(res.code, `${name} as ${actor}: ${res.msg}`).toBe(row.expect[i]);
      }
    });
  }

  it("lets the owner alone set how long the group's messages are kept (消息保存时间)", async () => {
    const expected: Record<Actor, number> = {
      owner: OK,
      admin: FORBIDDEN,
      member: FORBIDDEN,
      outsider: NOT_MEMBER,
      removed: NOT_MEMBER,
    };
    for (const actor of ACTORS) {
      const f = await fixture();
      const res = await server.call(
        'groupSetting',
        { id: f.gid, setting: { retention: 30 } },
        { token: f.users[actor].token },
      );
      expect(res.code, `retention as ${actor}: ${res.msg}`).toBe(expected[actor]);
      const info = await server.call('groupInfo', { group_id: f.gid }, { token: f.users.member.token });
      expect(info.data.setting.retention).toBe(actor === 'owner' ? 30 : 0);
    }
    // Only the days offered are taken.
    const f = await fixture();
    const odd = await server.call(
      'groupSetting',
      { id: f.gid, setting: { retention: 8 } },
      { token: f.users.owner.token },
    );
    expect(odd.code).toBe(400);
  });

  it('lets an admin act on members only, and keeps the owner from leaving', async () => {
    const f = await fixture();
    const { owner, admin, member } = f.users;
    await server.call('setManager', { id: f.gid, user_id: member.userId, role: 2 }, { token: owner.token });
    expect((await server.call('removeUser', { id: f.gid, user_id: member.userId }, { token: admin.token })).code).toBe(
      403,
    );
    expect(
      (await server.call('setNoSpeak', { id: f.gid, user_id: member.userId, noSpeakTimer: 1 }, { token: admin.token }))
        .code,
    ).toBe(403);
    expect(
      (await server.call('setNoSpeak', { id: f.gid, user_id: owner.userId, noSpeakTimer: 1 }, { token: admin.token }))
        .code,
    ).toBe(403);
    const ownerMutesAdmin = await server.call(
      'setNoSpeak',
      { id: f.gid, user_id: admin.userId, noSpeakTimer: 1 },
      { token: owner.token },
    );
    expect(ownerMutesAdmin.code, ownerMutesAdmin.msg).toBe(0);
    const leave = await server.call('removeUser', { id: f.gid, user_id: owner.userId }, { token: owner.token });
    expect(leave).toMatchObject({ code: 400, msg: 'The owner must hand the group over or disband it first' });
    const left = await server.call('removeUser', { id: f.gid, user_id: member.userId }, { token: member.token });
    expect(left.code, left.msg).toBe(0);
    expect((await server.call('groupInfo', { group_id: f.gid }, { token: member.token })).code).toBe(403);
  });
});
