import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCodes,
  KEYWORD_LISTS_MAX,
  KEYWORDS_PER_LIST_MAX,
  parseQrLink,
  PINS_PER_CHAT_MAX,
  REACTIONS_PER_USER_MAX,
  type Envelope,
  type RouteName,
} from '@sparrow/protocol';
import { openDb, type Db } from '../src/db';
import type { Dialect } from '../src/db/dialect';
import { createRepos } from '../src/repos';
import { SessionService } from '../src/modules/auth';
import { Cluster, describeWithRedis, raiseRateLimits } from './cluster';
import { hashPassword } from '../src/lib/crypto';
import { dbTargets, startServer, TestSocket, userRow, type TestServer } from './harness';

/**
 * Every mutating route that changes a shared row, fired K times at once (split across the
 * servers) with the same and the conflicting calls, and its invariant checked in the database
 * afterwards. On PostgreSQL two server processes share the database and Redis, so a check made on
 * one and an act made on the other interleave as in a deployment; SQLite runs one server.
 *
 * A new route of that kind is one more row of RACES: its setup, the calls that race, and what must
 * hold after them. A row marked `once` is a one-time action: exactly one call succeeds, and every
 * loser answers what the same call made again afterwards answers.
 */

/** Calls fired at once per try. */
const K = 8;
/** Independent tries per row, each with a fresh setup. */
const TRIES = 3;

interface User {
  userId: number;
  token: string;
}

interface Env {
  db: Db;
  dialect: Dialect;
  /** How many server processes the calls are spread over. */
  nodes: number;
  call(node: number, name: RouteName, body: object, as: User): Promise<Envelope<any>>;
  /** The address of a server, for sockets. */
  url(node: number): string;
  /** A new active user with a session, made in the database (creating users is not under test). */
  user(): Promise<User>;
  close(): Promise<void>;
}

interface Call {
  as: User;
  route: RouteName;
  body: object;
}

interface Answer {
  call: Call;
  code: number;
  msg: string;
  data?: any;
}

interface Race<S> {
  name: string;
  invariant: string;
  /** Exactly one call succeeds; the losers answer as the call made again afterwards does. */
  once?: boolean;
  setup(env: Env): Promise<S>;
  /** The distinct calls that race; K calls are fired, taking turns among these and among the servers. */
  calls(s: S): Call[];
  /** What is wrong after the race (nothing when the invariant holds). */
  check(env: Env, s: S, answers: Answer[]): Promise<string[]>;
}

const race = <S>(r: Race<S>): Race<unknown> => r as Race<unknown>;

// ---------------------------------------------------------------- setup helpers

async function ok(env: Env, name: RouteName, body: object, as: User): Promise<any> {
  const res = await env.call(0, name, body, as);
  if (res.code !== 0) throw new Error(`setup ${name} ${JSON.stringify(body)}: ${res.code} ${res.msg}`);
  return res.data;
}

async function befriend(env: Env, a: User, b: User): Promise<void> {
  await ok(env, 'friendAdd', { user_id: b.userId }, a);
  await ok(env, 'friendAdd', { user_id: a.userId }, b);
}

interface Group {
  gid: string;
  id: number;
  owner: User;
  members: User[];
  /** The newest message id when setup ended: lines after it are the race's. */
  mark: number;
}

/** A group of `owner` and `n` members (friends of the owner). */
async function groupOf(env: Env, n: number): Promise<Group> {
  const owner = await env.user();
  const members: User[] = [];
  for (let i = 0; i < n; i++) {
    const m = await env.user();
    await befriend(env, owner, m);
    members.push(m);
  }
  const contact = await ok(env, 'groupAdd', { user_ids: members.map((m) => m.userId), name: 'race' }, owner);
  const gid = contact.group_id as string;
  return { gid, id: Number(gid.slice('group-'.length)), owner, members, mark: await newestId(env) };
}

async function newestId(env: Env): Promise<number> {
  const row = await env.db
    .selectFrom('messages')
    .select((eb) => eb.fn.max('id').as('m'))
    .executeTakeFirst();
  return Number(row?.m ?? 0);
}

/** Event lines of `event` posted in a group after `mark`. */
async function groupLines(env: Env, g: Group, event: string): Promise<number> {
  const rows = await env.db
    .selectFrom('messages')
    .select('extends')
    .where('chat_key', '=', `g:${g.id}`)
    .where('type', '=', 'event')
    .where('id', '>', g.mark)
    .execute();
  return rows.filter((r) => (JSON.parse(r.extends || '{}') as { event?: string }).event === event).length;
}

/** A socket of `user`'s on the last server: friend notices are pushed, not stored. */
function listen(env: Env, user: User): Promise<TestSocket> {
  return TestSocket.bound({ url: env.url(env.nodes - 1) }, user.userId, user.token);
}

/** The friend notices (`request` or `accepted`) a socket received, once the pushes have had time to arrive; closes it. */
async function notices(socket: TestSocket, kind: 'request' | 'accepted'): Promise<number> {
  await new Promise((r) => setTimeout(r, 400));
  socket.close();
  return socket.frames.filter(
    (f) => f.type === 'simple' && f.data?.toContactId === 'system' && String(f.data.id).endsWith(`-${kind}`),
  ).length;
}

async function members(env: Env, g: Group) {
  return env.db
    .selectFrom('group_members')
    .select(['user_id', 'role', 'no_speak_until'])
    .where('group_id', '=', g.id)
    .execute();
}

/** One owner: one member of role 1, and the group's owner_id names them. */
async function oneOwner(env: Env, g: Group): Promise<string[]> {
  const rows = await members(env, g);
  const owners = rows.filter((r) => r.role === 1);
  const group = await env.db.selectFrom('groups').select('owner_id').where('id', '=', g.id).executeTakeFirstOrThrow();
  const wrong: string[] = [];
  if (owners.length !== 1) wrong.push(`${owners.length} members of role owner`);
  else if (owners[0]!.user_id !== group.owner_id)
    wrong.push(`owner_id ${group.owner_id} is not the owner member ${owners[0]!.user_id}`);
  return wrong;
}

async function friendRows(env: Env, a: User, b: User): Promise<number> {
  return (
    await env.db
      .selectFrom('friends')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('user_id', '=', a.userId), eb('friend_user_id', '=', b.userId)]),
          eb.and([eb('user_id', '=', b.userId), eb('friend_user_id', '=', a.userId)]),
        ]),
      )
      .execute()
  ).length;
}

async function pendingBetween(env: Env, a: User, b: User): Promise<number> {
  return (
    await env.db
      .selectFrom('friend_requests')
      .select('id')
      .where('status', '=', 2)
      .where((eb) =>
        eb.or([
          eb.and([eb('create_user', '=', a.userId), eb('user_id', '=', b.userId)]),
          eb.and([eb('create_user', '=', b.userId), eb('user_id', '=', a.userId)]),
        ]),
      )
      .execute()
  ).length;
}

async function requestId(env: Env, from: User, to: User): Promise<number> {
  const row = await env.db
    .selectFrom('friend_requests')
    .select('id')
    .where('create_user', '=', from.userId)
    .where('user_id', '=', to.userId)
    .where('status', '=', 2)
    .executeTakeFirstOrThrow();
  return row.id;
}

const successes = (answers: Answer[], route?: RouteName) =>
  answers.filter((a) => a.code === 0 && (!route || a.call.route === route)).length;

const expectThat = (wrong: string[], cond: boolean, what: string) => {
  if (!cond) wrong.push(what);
};

/** Two friends, and a message the first sent the second: what withdraw and delete races start from. */
async function sentMessage(env: Env, content = 'x'): Promise<{ a: User; b: User; msgId: number }> {
  const [a, b] = [await env.user(), await env.user()];
  await befriend(env, a, b);
  const sent = await ok(env, 'sendMessage', { id: randomUUID(), toContactId: b.userId, type: 'text', content }, a);
  return { a, b, msgId: sent.msg_id as number };
}

/** Which of `ids` the search index holds (on SQLite among the messages the FTS5 table finds by `word`). */
async function indexed(env: Env, ids: number[], word: string): Promise<number[]> {
  const { rows } =
    env.dialect === 'postgres'
      ? await sql<{ id: number }>`select msg_id as id from message_search where msg_id = any(${ids})`.execute(env.db)
      : await sql<{
          id: number;
        }>`select rowid as id from message_words where message_words match ${`"${word}"`}`.execute(env.db);
  return rows.map((r) => Number(r.id)).filter((id) => ids.includes(id));
}

// ---------------------------------------------------------------- the race table

/** A group of two members and a guest who scanned its code on a Raingad client (scanGroup), not yet in it. */
async function scannedBy(env: Env) {
  const g = await groupOf(env, 2);
  const info = await ok(env, 'groupInfo', { group_id: g.gid }, g.owner);
  const guest = await env.user();
  await ok(env, 'scanGroup', { realToken: parseQrLink(info.qrUrl as string)!.token }, guest);
  return { ...g, guest, mark: await newestId(env) };
}

const RACES: Array<Race<unknown>> = [
  race({
    name: 'qrLoginConfirm of one scanned login code (扫码登录)',
    invariant: 'one session made by the code, one success',
    once: true,
    async setup(env) {
      const phone = await env.user();
      const made = await ok(env, 'qrLoginCreate', {}, phone);
      await ok(env, 'qrLoginScan', { code: made.code }, phone);
      return { phone, code: made.code as string };
    },
    calls: (s) => [{ as: s.phone, route: 'qrLoginConfirm', body: { code: s.code } }],
    async check(env, s) {
      const wrong: string[] = [];
      const rows = await env.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', s.phone.userId)
        .where('via', '=', 'qr')
        .execute();
      expectThat(wrong, rows.length === 1, `${rows.length} sessions made by one code`);
      return wrong;
    },
  }),
  race({
    name: 'changeOwner to two members',
    invariant: 'one owner, one success, one line',
    once: true,
    setup: (env) => groupOf(env, 2),
    calls: (g) => g.members.map((m) => ({ as: g.owner, route: 'changeOwner', body: { id: g.gid, user_id: m.userId } })),
    async check(env, g) {
      const wrong = await oneOwner(env, g);
      expectThat(wrong, (await groupLines(env, g, 'changeOwner')) === 1, 'changeOwner lines ≠ 1');
      return wrong;
    },
  }),
  race({
    name: 'setManager, the same',
    invariant: 'an administrator, one line, every call answered 0',
    setup: (env) => groupOf(env, 2),
    calls: (g) => [{ as: g.owner, route: 'setManager', body: { id: g.gid, user_id: g.members[0]!.userId, role: 2 } }],
    async check(env, g, answers) {
      const wrong: string[] = [];
      const role = (await members(env, g)).find((m) => m.user_id === g.members[0]!.userId)?.role;
      expectThat(wrong, role === 2, `role ${role}`);
      expectThat(wrong, (await groupLines(env, g, 'setManager')) === 1, 'setManager lines ≠ 1');
      expectThat(wrong, successes(answers) === answers.length, 'a call refused');
      return wrong;
    },
  }),
  race({
    name: 'setManager against changeOwner',
    invariant: 'one owner, not demoted',
    setup: (env) => groupOf(env, 2),
    calls: (g) => [
      { as: g.owner, route: 'changeOwner', body: { id: g.gid, user_id: g.members[0]!.userId } },
      { as: g.owner, route: 'setManager', body: { id: g.gid, user_id: g.members[0]!.userId, role: 2 } },
      { as: g.owner, route: 'setManager', body: { id: g.gid, user_id: g.members[0]!.userId, role: 3 } },
    ],
    async check(env, g, answers) {
      const wrong = await oneOwner(env, g);
      expectThat(wrong, successes(answers, 'changeOwner') === 1, 'changeOwner successes ≠ 1');
      return wrong;
    },
  }),
  race({
    name: 'removeUser of an owner-to-be by an admin against changeOwner',
    invariant: 'one owner, and a member',
    async setup(env) {
      const g = await groupOf(env, 2);
      await ok(env, 'setManager', { id: g.gid, user_id: g.members[0]!.userId, role: 2 }, g.owner);
      return g;
    },
    calls: (g) => [
      { as: g.owner, route: 'changeOwner', body: { id: g.gid, user_id: g.members[1]!.userId } },
      { as: g.members[0]!, route: 'removeUser', body: { id: g.gid, user_id: g.members[1]!.userId } },
    ],
    async check(env, g, answers) {
      const wrong = await oneOwner(env, g);
      expectThat(
        wrong,
        successes(answers, 'changeOwner') + successes(answers, 'removeUser') === 1,
        'both the hand-over and the removal succeeded',
      );
      return wrong;
    },
  }),
  race({
    name: 'setNoSpeak of an owner-to-be by an admin against changeOwner',
    invariant: 'the owner is not muted',
    async setup(env) {
      const g = await groupOf(env, 2);
      await ok(env, 'setManager', { id: g.gid, user_id: g.members[0]!.userId, role: 2 }, g.owner);
      return g;
    },
    calls: (g) => [
      { as: g.owner, route: 'changeOwner', body: { id: g.gid, user_id: g.members[1]!.userId } },
      { as: g.members[0]!, route: 'setNoSpeak', body: { id: g.gid, user_id: g.members[1]!.userId, noSpeakTimer: 4 } },
    ],
    async check(env, g) {
      const wrong = await oneOwner(env, g);
      const owner = (await members(env, g)).find((m) => m.role === 1);
      expectThat(wrong, owner?.no_speak_until === 0, 'the owner is muted');
      return wrong;
    },
  }),
  race({
    name: 'removeUser, the same member',
    invariant: 'one success, one line',
    once: true,
    setup: (env) => groupOf(env, 2),
    calls: (g) => [{ as: g.owner, route: 'removeUser', body: { id: g.gid, user_id: g.members[0]!.userId } }],
    async check(env, g) {
      const wrong: string[] = [];
      expectThat(wrong, (await groupLines(env, g, 'remove')) === 1, 'remove lines ≠ 1');
      return wrong;
    },
  }),
  race({
    name: 'removeUser, leaving',
    invariant: 'one success, one line',
    once: true,
    setup: (env) => groupOf(env, 2),
    calls: (g) => [{ as: g.members[0]!, route: 'removeUser', body: { id: g.gid, user_id: g.members[0]!.userId } }],
    async check(env, g) {
      const wrong: string[] = [];
      expectThat(wrong, (await groupLines(env, g, 'leave')) === 1, 'leave lines ≠ 1');
      return wrong;
    },
  }),
  race({
    name: 'addGroupUser, the same invitee',
    invariant: 'one success, one member row, one line',
    once: true,
    async setup(env) {
      const g = await groupOf(env, 2);
      const guest = await env.user();
      await befriend(env, g.owner, guest);
      return { ...g, guest, mark: await newestId(env) };
    },
    calls: (g) => [{ as: g.owner, route: 'addGroupUser', body: { id: g.gid, user_ids: [g.guest.userId] } }],
    async check(env, g) {
      const wrong: string[] = [];
      const rows = (await members(env, g)).filter((m) => m.user_id === g.guest.userId);
      expectThat(wrong, rows.length === 1, `${rows.length} member rows`);
      expectThat(wrong, (await groupLines(env, g, 'invite')) === 1, 'invite lines ≠ 1');
      return wrong;
    },
  }),
  race({
    name: 'joinGroup by QR code',
    invariant: 'one success, one line',
    once: true,
    async setup(env) {
      const g = await groupOf(env, 2);
      const info = await ok(env, 'groupInfo', { group_id: g.gid }, g.owner);
      const guest = await env.user();
      return { ...g, guest, token: parseQrLink(info.qrUrl as string)!.token, mark: await newestId(env) };
    },
    calls: (g) => [{ as: g.guest, route: 'joinGroup', body: { group_id: g.gid, token: g.token } }],
    async check(env, g) {
      const wrong: string[] = [];
      expectThat(wrong, (await groupLines(env, g, 'join')) === 1, `join lines ≠ 1`);
      return wrong;
    },
  }),
  race({
    name: 'joinGroup by a scan on a Raingad client (no token)',
    invariant: 'one success, one line',
    once: true,
    setup: scannedBy,
    calls: (g) => [{ as: g.guest, route: 'joinGroup', body: { group_id: g.gid } }],
    async check(env, g) {
      const wrong: string[] = [];
      expectThat(wrong, (await groupLines(env, g, 'join')) === 1, `join lines ≠ 1`);
      return wrong;
    },
  }),
  race({
    name: 'joinGroup by a scan against resetGroupQr',
    invariant: 'the join only if it came before the reset: a member after, with one line, or no one',
    setup: scannedBy,
    calls: (g) => [
      { as: g.guest, route: 'joinGroup', body: { group_id: g.gid } },
      { as: g.owner, route: 'resetGroupQr', body: { group_id: g.gid } },
    ],
    async check(env, g) {
      const wrong: string[] = [];
      const joined = (await members(env, g)).some((m) => m.user_id === g.guest.userId);
      const lines = await groupLines(env, g, 'join');
      expectThat(wrong, lines === (joined ? 1 : 0), `${lines} join lines, joined ${joined}`);
      // Whatever the order, the scan admits no one once the reset is in.
      const after = await env.call(0, 'joinGroup', { group_id: g.gid }, g.guest);
      expectThat(wrong, after.code !== 0, `a join after the reset answered ${after.code}`);
      return wrong;
    },
  }),
  race({
    name: 'joinGroup against addGroupUser, the same person',
    invariant: 'one success, one line',
    async setup(env) {
      const g = await groupOf(env, 2);
      const info = await ok(env, 'groupInfo', { group_id: g.gid }, g.owner);
      const guest = await env.user();
      await befriend(env, g.owner, guest);
      return { ...g, guest, token: parseQrLink(info.qrUrl as string)!.token, mark: await newestId(env) };
    },
    calls: (g) => [
      { as: g.guest, route: 'joinGroup', body: { group_id: g.gid, token: g.token } },
      { as: g.owner, route: 'addGroupUser', body: { id: g.gid, user_ids: [g.guest.userId] } },
    ],
    async check(env, g, answers) {
      const wrong: string[] = [];
      expectThat(wrong, successes(answers) === 1, `${successes(answers)} successes`);
      const lines = (await groupLines(env, g, 'join')) + (await groupLines(env, g, 'invite'));
      expectThat(wrong, lines === 1, `${lines} join and invite lines`);
      return wrong;
    },
  }),
  race({
    name: 'removeUser of a member against their joinGroup with a code they were shown',
    invariant: 'one removal, no join, and the member is out',
    async setup(env) {
      const g = await groupOf(env, 2);
      const m = g.members[0]!;
      const info = await ok(env, 'groupInfo', { group_id: g.gid }, m);
      return { ...g, m, token: parseQrLink(info.qrUrl as string)!.token, mark: await newestId(env) };
    },
    calls: (g) => [
      { as: g.owner, route: 'removeUser', body: { id: g.gid, user_id: g.m.userId } },
      { as: g.m, route: 'joinGroup', body: { group_id: g.gid, token: g.token } },
      { as: g.m, route: 'joinGroup', body: { group_id: g.gid, token: g.token } },
      { as: g.m, route: 'joinGroup', body: { group_id: g.gid, token: g.token } },
    ],
    async check(env, g, answers) {
      const wrong: string[] = [];
      // A join committed first finds a member (AlreadyMember); one after the removal finds the code revoked.
      expectThat(wrong, successes(answers, 'joinGroup') === 0, `${successes(answers, 'joinGroup')} joins succeeded`);
      expectThat(wrong, successes(answers, 'removeUser') === 1, `${successes(answers, 'removeUser')} removals`);
      const stays = (await members(env, g)).some((r) => r.user_id === g.m.userId);
      expectThat(wrong, !stays, 'the removed member is a member');
      return wrong;
    },
  }),
  race({
    name: 'resetGroupQr against joinGroup with the code before it',
    invariant: 'the old code admits no one after the reset',
    async setup(env) {
      const g = await groupOf(env, 2);
      const info = await ok(env, 'groupInfo', { group_id: g.gid }, g.owner);
      const guests = [await env.user(), await env.user(), await env.user()];
      return { ...g, guests, token: parseQrLink(info.qrUrl as string)!.token, mark: await newestId(env) };
    },
    calls: (g) => [
      { as: g.owner, route: 'resetGroupQr', body: { group_id: g.gid } },
      ...g.guests.map((guest) => ({
        as: guest,
        route: 'joinGroup' as const,
        body: { group_id: g.gid, token: g.token },
      })),
    ],
    async check(env, g, answers) {
      const wrong: string[] = [];
      const resets = answers.filter((a) => a.call.route === 'resetGroupQr');
      expectThat(wrong, successes(answers, 'resetGroupQr') === resets.length, 'a reset refused');
      // A join committed before the first reset (its guest's second call finds a member), or the code is revoked.
      const allowed: number[] = [0, ErrorCodes.QrExpired, ErrorCodes.AlreadyMember];
      for (const a of answers)
        if (a.call.route === 'joinGroup' && !allowed.includes(a.code)) wrong.push(`a join answered ${a.code} ${a.msg}`);
      const joined = new Set(
        answers.filter((a) => a.call.route === 'joinGroup' && a.code === 0).map((a) => a.call.as.userId),
      );
      const rows = (await members(env, g)).filter((r) => g.guests.some((x) => x.userId === r.user_id));
      expectThat(
        wrong,
        rows.length === joined.size,
        `${rows.length} guests are members, ${joined.size} joins succeeded`,
      );
      // After the resets have committed the old code admits no one.
      const late = await env.user();
      const again = await env.call(0, 'joinGroup', { group_id: g.gid, token: g.token }, late);
      expectThat(wrong, again.code !== 0, 'the old code admitted someone after the reset');
      return wrong;
    },
  }),
  race({
    name: 'groupSetting, different switches',
    invariant: 'every switch kept',
    async setup(env) {
      const g = await groupOf(env, 2);
      await ok(env, 'setManager', { id: g.gid, user_id: g.members[0]!.userId, role: 2 }, g.owner);
      return g;
    },
    calls: (g) => [
      { as: g.owner, route: 'groupSetting', body: { id: g.gid, setting: { invite: 0 } } },
      { as: g.members[0]!, route: 'groupSetting', body: { id: g.gid, setting: { profile: 0 } } },
      { as: g.owner, route: 'groupSetting', body: { id: g.gid, setting: { history: 0 } } },
      { as: g.members[0]!, route: 'groupSetting', body: { id: g.gid, setting: { manage: 1 } } },
    ],
    async check(env, g) {
      const row = await env.db.selectFrom('groups').select('setting').where('id', '=', g.id).executeTakeFirstOrThrow();
      const s = JSON.parse(row.setting) as Record<string, number>;
      const wrong: string[] = [];
      expectThat(wrong, s.invite === 0 && s.profile === 0 && s.history === 0 && s.manage === 1, `lost: ${row.setting}`);
      return wrong;
    },
  }),
  race({
    name: 'groupSetting, the same change of who may speak',
    invariant: 'one line for one change',
    async setup(env) {
      const g = await groupOf(env, 2);
      await ok(env, 'setManager', { id: g.gid, user_id: g.members[0]!.userId, role: 2 }, g.owner);
      return g;
    },
    calls: (g) => [
      { as: g.owner, route: 'groupSetting', body: { id: g.gid, setting: { nospeak: 1 } } },
      { as: g.members[0]!, route: 'groupSetting', body: { id: g.gid, setting: { nospeak: 1 } } },
    ],
    async check(env, g) {
      const wrong: string[] = [];
      const lines = await groupLines(env, g, 'nospeak');
      expectThat(wrong, lines === 1, `${lines} lines for one change of who may speak`);
      return wrong;
    },
  }),
  race({
    name: 'removeGroup',
    invariant: 'one success',
    once: true,
    setup: (env) => groupOf(env, 2),
    calls: (g) => [{ as: g.owner, route: 'removeGroup', body: { id: g.gid } }],
    check: async () => [],
  }),
  race({
    name: 'friendAdd, the same pair',
    invariant: 'one request per pair, one notice',
    once: true,
    async setup(env) {
      const [a, b] = [await env.user(), await env.user()];
      return { a, b, socket: await listen(env, b) };
    },
    calls: ({ a, b }) => [{ as: a, route: 'friendAdd', body: { user_id: b.userId } }],
    async check(env, { a, b, socket }) {
      const wrong: string[] = [];
      const pending = await pendingBetween(env, a, b);
      expectThat(wrong, pending === 1, `${pending} pending requests`);
      const told = await notices(socket, 'request');
      expectThat(wrong, told === 1, `${told} request notices`);
      return wrong;
    },
  }),
  race({
    name: 'friendAdd, each other',
    invariant: 'friends, nothing pending',
    async setup(env) {
      return { a: await env.user(), b: await env.user() };
    },
    calls: ({ a, b }) => [
      { as: a, route: 'friendAdd', body: { user_id: b.userId } },
      { as: b, route: 'friendAdd', body: { user_id: a.userId } },
    ],
    async check(env, { a, b }) {
      const wrong: string[] = [];
      const rows = await friendRows(env, a, b);
      const pending = await pendingBetween(env, a, b);
      expectThat(wrong, rows === 2, `${rows} friend rows`);
      expectThat(wrong, pending === 0, `${pending} pending requests`);
      return wrong;
    },
  }),
  race({
    name: 'friendUpdate accept',
    invariant: 'one success, friends, one notice',
    once: true,
    async setup(env) {
      const [a, b] = [await env.user(), await env.user()];
      await ok(env, 'friendAdd', { user_id: b.userId }, a);
      return { a, b, id: await requestId(env, a, b), socket: await listen(env, a) };
    },
    calls: ({ b, id }) => [{ as: b, route: 'friendUpdate', body: { friend_id: id, status: 1 } }],
    async check(env, { a, b, socket }) {
      const wrong: string[] = [];
      expectThat(wrong, (await friendRows(env, a, b)) === 2, 'not friends');
      const told = await notices(socket, 'accepted');
      expectThat(wrong, told === 1, `${told} accepted notices`);
      return wrong;
    },
  }),
  race({
    name: 'friendUpdate accept against refuse',
    invariant: 'one success; accepted exactly when friends',
    async setup(env) {
      const [a, b] = [await env.user(), await env.user()];
      await ok(env, 'friendAdd', { user_id: b.userId }, a);
      return { a, b, id: await requestId(env, a, b) };
    },
    calls: ({ b, id }) => [
      { as: b, route: 'friendUpdate', body: { friend_id: id, status: 1 } },
      { as: b, route: 'friendUpdate', body: { friend_id: id, status: 0 } },
    ],
    async check(env, { a, b, id }, answers) {
      const wrong: string[] = [];
      expectThat(wrong, successes(answers) === 1, `${successes(answers)} successes`);
      const row = await env.db
        .selectFrom('friend_requests')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const rows = await friendRows(env, a, b);
      expectThat(wrong, (row.status === 1) === (rows === 2), `status ${row.status} with ${rows} friend rows`);
      return wrong;
    },
  }),
  race({
    name: 'friendDel',
    invariant: 'one success',
    once: true,
    async setup(env) {
      const [a, b] = [await env.user(), await env.user()];
      await befriend(env, a, b);
      return { a, b };
    },
    calls: ({ a, b }) => [{ as: a, route: 'friendDel', body: { id: b.userId } }],
    async check(env, { a, b }) {
      const wrong: string[] = [];
      expectThat(wrong, (await friendRows(env, a, b)) === 0, 'still friends');
      return wrong;
    },
  }),
  race({
    name: 'friendSetNickname, different remarks',
    invariant: 'every call answered 0, one of the remarks kept',
    async setup(env) {
      const [a, b] = [await env.user(), await env.user()];
      await befriend(env, a, b);
      const row = await env.db
        .selectFrom('friends')
        .select('id')
        .where('user_id', '=', a.userId)
        .where('friend_user_id', '=', b.userId)
        .executeTakeFirstOrThrow();
      return { a, id: row.id };
    },
    calls: ({ a, id }) => [
      { as: a, route: 'friendSetNickname', body: { friend_id: id, nickname: 'one' } },
      { as: a, route: 'friendSetNickname', body: { friend_id: id, nickname: 'two' } },
    ],
    async check(env, { id }, answers) {
      const wrong: string[] = [];
      const row = await env.db.selectFrom('friends').select('nickname').where('id', '=', id).executeTakeFirstOrThrow();
      expectThat(wrong, ['one', 'two'].includes(row.nickname), `remark ${row.nickname}`);
      expectThat(wrong, successes(answers) === answers.length, 'a call refused');
      return wrong;
    },
  }),
  race({
    name: 'undoMessage',
    invariant: 'one success',
    once: true,
    setup: sentMessage,
    calls: ({ a, msgId }) => [{ as: a, route: 'undoMessage', body: { id: msgId } }],
    async check(env, { msgId }) {
      const row = await env.db
        .selectFrom('messages')
        .select('is_undo')
        .where('id', '=', msgId)
        .executeTakeFirstOrThrow();
      return row.is_undo === 1 ? [] : ['not withdrawn'];
    },
  }),
  race({
    name: 'delMessage',
    invariant: 'one success',
    once: true,
    setup: sentMessage,
    calls: ({ a, msgId }) => [{ as: a, route: 'delMessage', body: { id: msgId } }],
    async check(env, { msgId }) {
      const row = await env.db
        .selectFrom('messages')
        .select('is_deleted')
        .where('id', '=', msgId)
        .executeTakeFirstOrThrow();
      return row.is_deleted === 1 ? [] : ['not deleted'];
    },
  }),
  race({
    name: 'undoMessage and delMessage against the search index',
    invariant: 'the index holds no withdrawn or deleted message, indexed before the race or not',
    async setup(env) {
      const { a, b, msgId: before } = await sentMessage(env, '咖啡馆里见');
      // The search brings the index up to the first message; the second waits for the indexer.
      await ok(env, 'searchMessage', { keywords: '咖啡馆' }, a);
      const after = await ok(
        env,
        'sendMessage',
        { id: randomUUID(), toContactId: b.userId, type: 'text', content: '咖啡馆外见' },
        a,
      );
      return { a, ids: [before, after.msg_id as number] };
    },
    calls: ({ a, ids: [before, after] }) => [
      { as: a, route: 'undoMessage', body: { id: before } },
      { as: a, route: 'searchMessage', body: { keywords: '咖啡馆' } },
      { as: a, route: 'delMessage', body: { id: after } },
      { as: a, route: 'searchMessage', body: { keywords: '里见' } },
    ],
    async check(env, { a, ids }) {
      const found = await ok(env, 'searchMessage', { keywords: '咖啡馆' }, a);
      const wrong: string[] = [];
      expectThat(wrong, found.length === 0, `search found ${found.length}`);
      const left = await indexed(env, ids, '咖啡');
      expectThat(wrong, left.length === 0, `the index still holds ${left.join(', ')}`);
      return wrong;
    },
  }),
  race({
    name: 'undoMessage against delMessage',
    invariant: 'deleted once, withdrawn at most once',
    setup: sentMessage,
    calls: ({ a, msgId }) => [
      { as: a, route: 'undoMessage', body: { id: msgId } },
      { as: a, route: 'delMessage', body: { id: msgId } },
    ],
    async check(env, { msgId }, answers) {
      const wrong: string[] = [];
      const row = await env.db
        .selectFrom('messages')
        .select('is_deleted')
        .where('id', '=', msgId)
        .executeTakeFirstOrThrow();
      expectThat(wrong, row.is_deleted === 1, 'not deleted');
      expectThat(wrong, successes(answers, 'delMessage') === 1, `${successes(answers, 'delMessage')} deletions`);
      expectThat(wrong, successes(answers, 'undoMessage') <= 1, `${successes(answers, 'undoMessage')} withdrawals`);
      return wrong;
    },
  }),
  race({
    name: 'reactMessage by many people at once',
    invariant: 'the count is the number of people, every call answered 0',
    async setup(env) {
      const g = await groupOf(env, K);
      const sent = await ok(env, 'sendMessage', { id: randomUUID(), toContactId: g.gid, content: 'react' }, g.owner);
      return { ...g, msgId: sent.msg_id as number };
    },
    calls: (g) => g.members.map((m) => ({ as: m, route: 'reactMessage', body: { id: g.msgId, emoji: '👍', on: 1 } })),
    async check(env, g, answers) {
      const wrong: string[] = [];
      const page = await ok(env, 'getMessageList', { toContactId: g.gid, is_group: 1 }, g.owner);
      const shown = (page as Array<{ msg_id: number; reactions?: Array<{ count: number }> }>).find(
        (m) => m.msg_id === g.msgId,
      );
      const people = new Set(answers.map((a) => a.call.as.userId)).size;
      expectThat(wrong, shown?.reactions?.[0]?.count === people, `count ${shown?.reactions?.[0]?.count} ≠ ${people}`);
      expectThat(wrong, successes(answers) === answers.length, 'a call refused');
      return wrong;
    },
  }),
  race({
    name: 'setMsgIsRead of two group messages by several members at once, one reading both (群消息已读回执)',
    invariant:
      'no read position goes back; each message counts exactly those who read it; the sender hears of each read',
    async setup(env) {
      const g = await groupOf(env, K);
      const first = await ok(env, 'sendMessage', { id: randomUUID(), toContactId: g.gid, content: 'one' }, g.owner);
      const second = await ok(env, 'sendMessage', { id: randomUUID(), toContactId: g.gid, content: 'two' }, g.owner);
      return {
        ...g,
        first: first.msg_id as number,
        second: second.msg_id as number,
        socket: await listen(env, g.owner),
      };
    },
    // K/2 calls, each fired on every server: the first member reads both messages at once.
    calls: (g) => {
      const [both, later, earlier] = g.members as [User, User, User];
      const read = (as: User, msgId: number) => ({
        as,
        route: 'setMsgIsRead' as const,
        body: { toContactId: g.gid, is_group: 1, msg_id: msgId },
      });
      return [read(both, g.second), read(both, g.first), read(later, g.second), read(earlier, g.first)];
    },
    async check(env, g, answers) {
      const wrong: string[] = [];
      expectThat(wrong, successes(answers) === answers.length, 'a call refused');
      const [both, later, earlier] = g.members as [User, User, User];
      const rows = await env.db
        .selectFrom('conversations')
        .select(['user_id', 'read_msg_id'])
        .where('chat_key', '=', `g:${g.id}`)
        .where('user_id', 'in', [both.userId, later.userId, earlier.userId])
        .execute();
      const want = new Map([
        [both.userId, g.second],
        [later.userId, g.second],
        [earlier.userId, g.first],
      ]);
      for (const r of rows)
        expectThat(wrong, r.read_msg_id === want.get(r.user_id), `user ${r.user_id} read to ${r.read_msg_id}`);
      const counts = await ok(env, 'groupReadCounts', { toContactId: g.gid, ids: [g.first, g.second] }, g.owner);
      const exact = [
        { msg_id: g.first, read: 3, unread: K - 3 },
        { msg_id: g.second, read: 2, unread: K - 2 },
      ];
      expectThat(wrong, JSON.stringify(counts) === JSON.stringify(exact), `counts ${JSON.stringify(counts)}`);
      // Pushes do not name the reader: each read that moved a position is told by where it moved to
      // (two reach the second message, one at least the first; the first member's read of the
      // first may have come after their read of the second, and then moved nothing).
      const heard = async () => {
        const until = Date.now() + 3000;
        const upTo = () => g.socket.frames.filter((f) => f.type === 'readReceipt').map((f) => f.data.msg_id as number);
        const enough = () =>
          upTo().filter((id) => id === g.second).length >= 2 && upTo().filter((id) => id === g.first).length >= 1;
        while (!enough() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        return { ok: enough(), upTo: upTo() };
      };
      const told = await heard();
      g.socket.close();
      expectThat(wrong, told.ok, `the sender heard reads up to ${told.upTo.join(',')}`);
      return wrong;
    },
  }),
  race({
    name: 'reactMessage with more emoji than one person may put',
    invariant: `REACTIONS_PER_USER_MAX reactions, the rest ReactionsFull`,
    setup: (env) => sentMessage(env, 'react'),
    calls: ({ b, msgId }) =>
      ['👍', '❤️', '😂', '😮', '😢', '🙏', '🎉', '🔥']
        .slice(0, K)
        .map((emoji) => ({ as: b, route: 'reactMessage', body: { id: msgId, emoji, on: 1 } })),
    async check(env, { b, msgId }, answers) {
      const wrong: string[] = [];
      const rows = await env.db
        .selectFrom('message_reactions')
        .select('emoji')
        .where('msg_id', '=', msgId)
        .where('user_id', '=', b.userId)
        .execute();
      expectThat(wrong, rows.length === REACTIONS_PER_USER_MAX, `${rows.length} reactions`);
      expectThat(wrong, successes(answers) === REACTIONS_PER_USER_MAX, `${successes(answers)} succeeded`);
      const full = answers.filter((a) => a.code === ErrorCodes.ReactionsFull).length;
      expectThat(wrong, full === answers.length - REACTIONS_PER_USER_MAX, `${full} answered ReactionsFull`);
      return wrong;
    },
  }),
  race({
    name: 'editMessage of one text at once',
    invariant: 'each edit one version: the versions and the text are the original and every edit, once each',
    setup: (env) => sentMessage(env, 'v0'),
    calls: ({ a, msgId }) =>
      Array.from({ length: K }, (_, i) => ({ as: a, route: 'editMessage', body: { id: msgId, content: `v${i + 1}` } })),
    async check(env, { msgId }, answers) {
      const wrong: string[] = [];
      const versions = await env.db
        .selectFrom('message_edits')
        .select('content')
        .where('msg_id', '=', msgId)
        .orderBy('id')
        .execute();
      const row = await env.db
        .selectFrom('messages')
        .select(['content', 'edited_at'])
        .where('id', '=', msgId)
        .executeTakeFirstOrThrow();
      const texts = [...versions.map((v) => v.content), row.content].sort();
      const expected = ['v0', ...answers.map((a) => (a.call.body as { content: string }).content)].sort();
      expectThat(wrong, successes(answers) === answers.length, `${successes(answers)} of ${answers.length} edits`);
      expectThat(wrong, versions[0]?.content === 'v0', `first version ${versions[0]?.content}`);
      expectThat(wrong, JSON.stringify(texts) === JSON.stringify(expected), `texts ${texts.join(',')}`);
      expectThat(wrong, Number(row.edited_at) > 0, 'not marked edited');
      return wrong;
    },
  }),
  race({
    name: 'momentsLike',
    invariant: 'one like, one notice',
    async setup(env) {
      const [a, b] = [await env.user(), await env.user()];
      await befriend(env, a, b);
      const post = await ok(env, 'momentsPublish', { id: randomUUID(), content: 'race' }, a);
      return { a, b, postId: post.id as number };
    },
    calls: ({ b, postId }) => [{ as: b, route: 'momentsLike', body: { id: postId } }],
    async check(env, { b, postId }, answers) {
      const wrong: string[] = [];
      const likes = await env.db.selectFrom('moment_likes').select('id').where('post_id', '=', postId).execute();
      const notices = await env.db
        .selectFrom('moment_notices')
        .select('id')
        .where('post_id', '=', postId)
        .where('actor_id', '=', b.userId)
        .execute();
      expectThat(wrong, likes.length === 1, `${likes.length} likes`);
      expectThat(wrong, notices.length === 1, `${notices.length} notices`);
      expectThat(wrong, successes(answers) === answers.length, 'a call refused');
      return wrong;
    },
  }),
  race({
    name: 'momentsDelComment',
    invariant: 'one success',
    once: true,
    async setup(env) {
      const a = await env.user();
      const post = await ok(env, 'momentsPublish', { id: randomUUID(), content: 'race' }, a);
      const comment = await ok(env, 'momentsComment', { id: post.id, content: 'c' }, a);
      return { a, commentId: comment.id as number };
    },
    calls: ({ a, commentId }) => [{ as: a, route: 'momentsDelComment', body: { id: commentId } }],
    check: async () => [],
  }),
  race({
    name: 'favoriteAdd of one message, a double tap on several devices',
    invariant: 'one favourite, every call answered with it',
    setup: sentMessage,
    calls: ({ b, msgId }) => [{ as: b, route: 'favoriteAdd', body: { msg_ids: [msgId] } }],
    async check(env, { b, msgId }, answers) {
      const wrong: string[] = [];
      const rows = await env.db
        .selectFrom('favourites')
        .select('id')
        .where('user_id', '=', b.userId)
        .where('source_msg_id', '=', msgId)
        .execute();
      expectThat(wrong, rows.length === 1, `${rows.length} favourites`);
      expectThat(wrong, successes(answers) === answers.length, 'a call refused');
      const listed = await ok(env, 'favoriteList', {}, b);
      expectThat(wrong, listed.length === 1, `the list holds ${listed.length}`);
      return wrong;
    },
  }),
  ...(
    [
      ['blockAdd of one person, on several devices at once', ['blockAdd']],
      ['blockAdd and blockDel of one person at once', ['blockAdd', 'blockDel']],
    ] as const
  ).map(([name, routes]) =>
    race({
      name,
      invariant: 'one block row at most, every call answered ok, the list as the row',
      async setup(env) {
        return { a: await env.user(), b: await env.user() };
      },
      calls: ({ a, b }) => routes.map((route) => ({ as: a, route, body: { user_id: b.userId } })),
      async check(env, { a, b }, answers) {
        const wrong: string[] = [];
        const rows = await env.db
          .selectFrom('blocks')
          .select('blocked_id')
          .where('blocker_id', '=', a.userId)
          .where('blocked_id', '=', b.userId)
          .execute();
        expectThat(wrong, rows.length <= 1, `${rows.length} block rows`);
        if (routes.length === 1) expectThat(wrong, rows.length === 1, 'no block row');
        expectThat(wrong, successes(answers) === answers.length, 'a call refused');
        const listed = await ok(env, 'blockList', {}, a);
        expectThat(wrong, listed.length === rows.length, `the list holds ${listed.length}, the table ${rows.length}`);
        return wrong;
      },
    }),
  ),
  race({
    name: 'userSetting, different keys',
    invariant: 'every key kept',
    async setup(env) {
      return { a: await env.user() };
    },
    calls: ({ a }) => [
      { as: a, route: 'userSetting', body: { theme: 'dark' } },
      { as: a, route: 'userSetting', body: { sendKey: 2 } },
      { as: a, route: 'userSetting', body: { hideMessageName: 1 } },
      { as: a, route: 'userSetting', body: { hideMessageTime: 1 } },
    ],
    async check(env, { a }) {
      const row = await env.db
        .selectFrom('users')
        .select('setting')
        .where('id', '=', a.userId)
        .executeTakeFirstOrThrow();
      const s = JSON.parse(row.setting) as Record<string, unknown>;
      const kept = s.theme === 'dark' && s.sendKey === 2 && s.hideMessageName === 1 && s.hideMessageTime === 1;
      return kept ? [] : [`lost: ${row.setting}`];
    },
  }),
  race({
    name: 'pinMessage of more messages than the chat has places left',
    invariant: `never more than PINS_PER_CHAT_MAX pins, one line per pin, the rest PinsFull`,
    async setup(env) {
      const g = await groupOf(env, 2);
      const ids: number[] = [];
      for (let i = 0; i < PINS_PER_CHAT_MAX - 3 + K; i++) {
        const sent = await ok(env, 'sendMessage', { id: randomUUID(), toContactId: g.gid, content: `m${i}` }, g.owner);
        ids.push(sent.msg_id as number);
      }
      for (const id of ids.slice(0, PINS_PER_CHAT_MAX - 3)) await ok(env, 'pinMessage', { id, pin: 1 }, g.owner);
      return { ...g, racing: ids.slice(PINS_PER_CHAT_MAX - 3), mark: await newestId(env) };
    },
    calls: (g) => g.racing.map((id) => ({ as: g.owner, route: 'pinMessage', body: { id, pin: 1 } })),
    async check(env, g, answers) {
      const wrong: string[] = [];
      const pins = await env.db.selectFrom('chat_pins').select('msg_id').where('chat_key', '=', `g:${g.id}`).execute();
      expectThat(wrong, pins.length === PINS_PER_CHAT_MAX, `${pins.length} pins`);
      expectThat(wrong, successes(answers) === 3, `${successes(answers)} pins succeeded`);
      expectThat(wrong, (await groupLines(env, g, 'pin')) === 3, 'pin lines ≠ 3');
      const full = answers.filter((a) => a.code === ErrorCodes.PinsFull).length;
      expectThat(wrong, full === answers.length - 3, `${full} answered PinsFull`);
      return wrong;
    },
  }),
  race({
    name: 'patUser of the same person',
    invariant: 'one pat, one line, the rest PatTooFast',
    setup: (env) => groupOf(env, 2),
    calls: (g) => [{ as: g.owner, route: 'patUser', body: { toContactId: g.gid, user_id: g.members[0]!.userId } }],
    async check(env, g, answers) {
      const wrong: string[] = [];
      expectThat(wrong, successes(answers) === 1, `${successes(answers)} pats succeeded`);
      expectThat(wrong, (await groupLines(env, g, 'pat')) === 1, 'pat lines ≠ 1');
      const refused = answers.filter((a) => a.code === ErrorCodes.PatTooFast).length;
      expectThat(wrong, refused === answers.length - 1, `${refused} answered PatTooFast`);
      return wrong;
    },
  }),
  race({
    name: 'manageReportAct by two admins at once',
    invariant: 'one action, one audit row, the report closed with it',
    once: true,
    async setup(env) {
      const [reporter, reported, first, second] = [
        await env.user(),
        await env.user(),
        await env.user(),
        await env.user(),
      ];
      await env.db.updateTable('users').set({ role: 1 }).where('id', 'in', [first.userId, second.userId]).execute();
      const filed = await ok(env, 'report', { kind: 'user', id: reported.userId, reason: 'spam' }, reporter);
      return { id: filed.id as number, admins: [first, second] };
    },
    calls: (r) => [
      { as: r.admins[0]!, route: 'manageReportAct', body: { id: r.id, action: 'warn' } },
      { as: r.admins[1]!, route: 'manageReportAct', body: { id: r.id, action: 'dismiss' } },
    ],
    async check(env, r, answers) {
      const wrong: string[] = [];
      const report = await env.db.selectFrom('reports').selectAll().where('id', '=', r.id).executeTakeFirstOrThrow();
      const audits = await env.db
        .selectFrom('audit_log')
        .select('action')
        .where('target', '=', `report:${r.id}`)
        .execute();
      const winner = answers.find((a) => a.code === 0);
      expectThat(wrong, successes(answers) === 1, `${successes(answers)} actions succeeded`);
      expectThat(wrong, audits.length === 1, `${audits.length} audit rows`);
      expectThat(wrong, report.status === 'closed' && report.open_key === null, `report ${report.status}`);
      expectThat(
        wrong,
        winner !== undefined && report.action === (winner.call.body as { action: string }).action,
        `the report says ${report.action}, not the winner's action`,
      );
      return wrong;
    },
  }),
  race({
    name: 'heldDecide of a held message, approve against reject (敏感词)',
    invariant: 'decided once; delivered once when approved, never when rejected',
    once: true,
    async setup(env) {
      const admin = await env.user();
      await env.db.updateTable('users').set({ role: 1 }).where('id', '=', admin.userId).execute();
      const word = `审核${randomUUID().slice(0, 8)}`;
      const list = await ok(env, 'manageKeywordListCreate', { name: word.slice(0, 20), action: 'review' }, admin);
      await ok(env, 'manageKeywordAdd', { list_id: list.id, words: word }, admin);
      const [a, b] = [await env.user(), await env.user()];
      await befriend(env, a, b);
      const clientId = randomUUID();
      const held = await ok(
        env,
        'sendMessage',
        { id: clientId, toContactId: b.userId, type: 'text', content: word },
        a,
      );
      if (held.held !== 1) throw new Error('the message was not held');
      // The list has done its part: off again, so that other rows' texts are never held.
      await ok(env, 'manageKeywordListDel', { id: list.id }, admin);
      const row = await env.db
        .selectFrom('held_items')
        .select('id')
        .where('user_id', '=', a.userId)
        .where('client_id', '=', clientId)
        .executeTakeFirstOrThrow();
      return { admin, a, clientId, heldId: row.id };
    },
    calls: (s) => [
      { as: s.admin, route: 'manageHeldDecide', body: { id: s.heldId, decision: 'approve' } },
      { as: s.admin, route: 'manageHeldDecide', body: { id: s.heldId, decision: 'reject' } },
    ],
    async check(env, s, answers) {
      const wrong: string[] = [];
      const won = answers.find((x) => x.code === 0)?.call.body as { decision?: string } | undefined;
      const stored = await env.db
        .selectFrom('messages')
        .select('id')
        .where('from_user', '=', s.a.userId)
        .where('client_id', '=', s.clientId)
        .execute();
      const row = await env.db
        .selectFrom('held_items')
        .select('status')
        .where('id', '=', s.heldId)
        .executeTakeFirstOrThrow();
      const approved = won?.decision === 'approve';
      expectThat(
        wrong,
        stored.length === (approved ? 1 : 0),
        `${stored.length} messages stored after ${won?.decision}`,
      );
      expectThat(wrong, row.status === (approved ? 1 : 2), `status ${row.status} after ${won?.decision}`);
      return wrong;
    },
  }),
  race({
    name: 'accountDelete of one account (注销账号)',
    invariant: 'deleted once, every call answered 0: friends gone both ways, the group handed on once, sessions ended',
    async setup(env) {
      const g = await groupOf(env, 2);
      await env.db
        .updateTable('users')
        .set({ password_hash: await hashPassword('secret123') })
        .where('id', '=', g.owner.userId)
        .execute();
      return g;
    },
    calls: (g) => [{ as: g.owner, route: 'accountDelete', body: { password: 'secret123' } }],
    async check(env, g, answers) {
      const wrong: string[] = [];
      const me = g.owner.userId;
      const user = await env.db.selectFrom('users').select('status').where('id', '=', me).executeTakeFirstOrThrow();
      expectThat(wrong, user.status === 2, `status ${user.status}`);
      const friends = await env.db
        .selectFrom('friends')
        .select('id')
        .where((eb) => eb.or([eb('user_id', '=', me), eb('friend_user_id', '=', me)]))
        .execute();
      expectThat(wrong, friends.length === 0, `${friends.length} friend rows left`);
      const live = await env.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', me)
        .where('revoked_at', 'is', null)
        .execute();
      expectThat(wrong, live.length === 0, `${live.length} sessions live`);
      const members = await env.db
        .selectFrom('group_members')
        .select(['user_id', 'role'])
        .where('group_id', '=', g.id)
        .execute();
      expectThat(wrong, !members.some((m) => m.user_id === me), 'still a member');
      expectThat(wrong, members.filter((m) => m.role === 1).length === 1, 'owners ≠ 1');
      const changes = await groupLines(env, g, 'changeOwner');
      expectThat(wrong, changes === 1, `changeOwner lines ${changes}`);
      expectThat(wrong, successes(answers) === answers.length, 'a call refused');
      return wrong;
    },
  }),
  race({
    name: 'exportRequest of one user (下载我的数据)',
    invariant: 'one export queued or running, every call answered with it',
    async setup(env) {
      return env.user();
    },
    calls: (u) => [{ as: u, route: 'exportRequest', body: {} }],
    async check(env, u, answers) {
      const wrong: string[] = [];
      const rows = await env.db
        .selectFrom('data_exports')
        .select(['id', 'state'])
        .where('user_id', '=', u.userId)
        .execute();
      const live = rows.filter((r) => r.state === 'queued' || r.state === 'running');
      expectThat(wrong, live.length <= 1, `${live.length} exports on their way`);
      expectThat(wrong, successes(answers) === answers.length, 'a call refused');
      // A second export may only follow one already done.
      const done = rows.filter((r) => r.state === 'done').length;
      expectThat(wrong, rows.length - done <= 1, `${rows.length} exports with ${done} done`);
      return wrong;
    },
  }),
  race({
    name: 'report of one message, a double tap on several devices (投诉)',
    invariant: 'one report, every call answered with it',
    setup: sentMessage,
    calls: ({ b, msgId }) => [{ as: b, route: 'report', body: { kind: 'message', id: msgId, reason: 'spam' } }],
    async check(env, { b, msgId }, answers) {
      const wrong: string[] = [];
      const rows = await env.db
        .selectFrom('reports')
        .select('id')
        .where('reporter_id', '=', b.userId)
        .where('target_id', '=', msgId)
        .execute();
      expectThat(wrong, rows.length === 1, `${rows.length} reports`);
      expectThat(wrong, successes(answers) === answers.length, 'a call refused');
      const mine = await ok(env, 'reportMine', {}, b);
      expectThat(wrong, mine.length === 1, `reportMine lists ${mine.length}`);
      return wrong;
    },
  }),
  race({
    name: 'manageKeywordAdd of the same word at once (敏感词)',
    invariant: 'one row per word, added once in all, each answer adding up to the words given',
    async setup(env) {
      const admin = await env.user();
      await env.db.updateTable('users').set({ role: 1 }).where('id', '=', admin.userId).execute();
      const word = `重复${randomUUID().slice(0, 8)}`;
      const list = await ok(env, 'manageKeywordListCreate', { name: word, action: 'refuse' }, admin);
      return { admin, word, listId: list.id as number };
    },
    calls: (s) => [{ as: s.admin, route: 'manageKeywordAdd', body: { list_id: s.listId, words: s.word } }],
    async check(env, s, answers) {
      const wrong: string[] = [];
      const rows = await env.db.selectFrom('keyword_words').select('id').where('list_id', '=', s.listId).execute();
      expectThat(wrong, rows.length === 1, `${rows.length} rows of one word`);
      expectThat(wrong, successes(answers) === answers.length, 'a call refused');
      const added = answers.reduce((n, a) => n + Number(a.data?.added ?? 0), 0);
      expectThat(wrong, added === 1, `added ${added} times`);
      for (const a of answers)
        if (a.code === 0 && a.data?.added + a.data?.existing + a.data?.invalid.length !== 1)
          wrong.push(`one word answered ${JSON.stringify(a.data)}`);
      const audits = await env.db
        .selectFrom('audit_log')
        .select('id')
        .where('action', '=', 'keywordAdd')
        .where('target', '=', `keywords:${s.listId}`)
        .execute();
      expectThat(wrong, audits.length === 1, `${audits.length} audit rows for one word added`);
      // Off again, so that other rows' texts never meet the word.
      await ok(env, 'manageKeywordListDel', { id: s.listId }, s.admin);
      return wrong;
    },
  }),
  race({
    name: 'manageKeywordAdd of different words at once, with three places left in the list (敏感词)',
    invariant: 'never more than KEYWORDS_PER_LIST_MAX words: three added, the rest KeywordListFull',
    async setup(env) {
      const admin = await env.user();
      await env.db.updateTable('users').set({ role: 1 }).where('id', '=', admin.userId).execute();
      const list = await ok(
        env,
        'manageKeywordListCreate',
        { name: `满${randomUUID().slice(0, 8)}`, action: 'refuse' },
        admin,
      );
      const filler = Array.from({ length: KEYWORDS_PER_LIST_MAX - 3 }, (_, i) => `填${list.id}x${i}`);
      for (let i = 0; i < filler.length; i += 1000)
        await env.db
          .insertInto('keyword_words')
          .values(filler.slice(i, i + 1000).map((word) => ({ list_id: list.id as number, word })))
          .execute();
      return { admin, listId: list.id as number };
    },
    calls: (s) =>
      Array.from({ length: K }, (_, i) => ({
        as: s.admin,
        route: 'manageKeywordAdd' as const,
        body: { list_id: s.listId, words: `新词${s.listId}x${i}` },
      })),
    async check(env, s, answers) {
      const wrong: string[] = [];
      const { n } = await env.db
        .selectFrom('keyword_words')
        .where('list_id', '=', s.listId)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expectThat(wrong, Number(n) === KEYWORDS_PER_LIST_MAX, `the list holds ${n} words`);
      expectThat(wrong, successes(answers) === 3, `${successes(answers)} adds succeeded`);
      const again = await env.call(0, 'manageKeywordAdd', { list_id: s.listId, words: '又一个' }, s.admin);
      for (const a of answers)
        if (a.code !== 0 && (a.code !== again.code || a.msg !== again.msg))
          wrong.push(`a loser answered ${a.code} ${a.msg}, an add to a full list ${again.code} ${again.msg}`);
      await ok(env, 'manageKeywordListDel', { id: s.listId }, s.admin);
      return wrong;
    },
  }),
  race({
    name: 'manageKeywordListCreate of one name at once, with three places left (敏感词)',
    invariant: 'never more than KEYWORD_LISTS_MAX lists: three made, the rest KeywordListFull',
    async setup(env) {
      const admin = await env.user();
      await env.db.updateTable('users').set({ role: 1 }).where('id', '=', admin.userId).execute();
      const before = await env.db.selectFrom('keyword_lists').select('id').execute();
      const filler = `满${randomUUID().slice(0, 8)}`;
      // Lists of no words, off: they screen nothing while they take their places.
      for (let i = before.length; i < KEYWORD_LISTS_MAX - 3; i++)
        await env.db
          .insertInto('keyword_lists')
          .values({ name: filler, action: 'refuse', enabled: 0, create_time: Date.now() })
          .execute();
      return { admin, name: `同名${randomUUID().slice(0, 8)}`, filler };
    },
    calls: (s) => [{ as: s.admin, route: 'manageKeywordListCreate', body: { name: s.name, action: 'refuse' } }],
    async check(env, s, answers) {
      const wrong: string[] = [];
      const lists = await env.db.selectFrom('keyword_lists').select(['id', 'name']).execute();
      const made = lists.filter((l) => l.name === s.name);
      expectThat(wrong, lists.length === KEYWORD_LISTS_MAX, `${lists.length} lists`);
      expectThat(
        wrong,
        made.length === 3 && successes(answers) === 3,
        `${made.length} made, ${successes(answers)} answered 0`,
      );
      const again = await env.call(0, 'manageKeywordListCreate', { name: s.name, action: 'refuse' }, s.admin);
      for (const a of answers)
        if (a.code !== 0 && (a.code !== again.code || a.msg !== again.msg))
          wrong.push(`a loser answered ${a.code} ${a.msg}, a create on a full table ${again.code} ${again.msg}`);
      await env.db.deleteFrom('keyword_lists').where('name', 'in', [s.name, s.filler]).execute();
      return wrong;
    },
  }),
  race({
    name: 'groupSetting retention by the owner on two devices and by an admin at once (消息保存时间)',
    invariant: "one of the owner's days kept, the admin refused every time",
    async setup(env) {
      const g = await groupOf(env, 2);
      await ok(env, 'setManager', { id: g.gid, user_id: g.members[0]!.userId, role: 2 }, g.owner);
      return g;
    },
    calls: (g) => [
      { as: g.owner, route: 'groupSetting', body: { id: g.gid, setting: { retention: 30 } } },
      { as: g.owner, route: 'groupSetting', body: { id: g.gid, setting: { retention: 90 } } },
      { as: g.members[0]!, route: 'groupSetting', body: { id: g.gid, setting: { retention: 7 } } },
    ],
    async check(env, g, answers) {
      const wrong: string[] = [];
      const row = await env.db.selectFrom('groups').select('setting').where('id', '=', g.id).executeTakeFirstOrThrow();
      const { retention } = JSON.parse(row.setting) as { retention?: number };
      expectThat(wrong, retention === 30 || retention === 90, `retention ${retention}`);
      const admin = answers.filter((a) => a.call.as === g.members[0]);
      expectThat(
        wrong,
        admin.every((a) => a.code === ErrorCodes.Forbidden),
        'the admin changed the retention',
      );
      expectThat(wrong, successes(answers) === answers.length - admin.length, "an owner's call refused");
      return wrong;
    },
  }),
  race({
    name: 'groupSetting retention against changeOwner by the owner (消息保存时间)',
    invariant: 'one owner; the days kept exactly when a call setting them succeeded',
    async setup(env) {
      return groupOf(env, 2);
    },
    calls: (g) => [
      { as: g.owner, route: 'groupSetting', body: { id: g.gid, setting: { retention: 30 } } },
      { as: g.owner, route: 'changeOwner', body: { id: g.gid, user_id: g.members[0]!.userId } },
    ],
    async check(env, g, answers) {
      const wrong = await oneOwner(env, g);
      const row = await env.db.selectFrom('groups').select('setting').where('id', '=', g.id).executeTakeFirstOrThrow();
      const { retention } = JSON.parse(row.setting) as { retention?: number };
      const set = successes(answers, 'groupSetting') > 0;
      expectThat(
        wrong,
        retention === (set ? 30 : 0),
        `retention ${retention} after ${successes(answers, 'groupSetting')} successes`,
      );
      expectThat(wrong, successes(answers, 'changeOwner') === 1, `${successes(answers, 'changeOwner')} handovers`);
      return wrong;
    },
  }),
];

// ---------------------------------------------------------------- running the table

/** Fires K calls at once, taking turns among the race's calls and, for each, among the servers. */
async function fire(env: Env, calls: Call[]): Promise<Answer[]> {
  return Promise.all(
    Array.from({ length: K }, async (_, i) => {
      const call = calls[i % calls.length]!;
      const node = Math.floor(i / calls.length) % env.nodes;
      const res = await env.call(node, call.route, call.body, call.as);
      return { call, code: res.code, msg: res.msg, data: res.data };
    }),
  );
}

/** A one-time action: one call succeeded, and each loser answered as the call made again does. */
async function once(env: Env, calls: Call[], answers: Answer[]): Promise<string[]> {
  const wrong: string[] = [];
  if (successes(answers) !== 1) wrong.push(`${successes(answers)} of ${answers.length} calls succeeded`);
  for (const call of calls) {
    const again = await env.call(0, call.route, call.body, call.as);
    for (const a of answers)
      if (a.call === call && a.code !== 0 && (a.code !== again.code || a.msg !== again.msg))
        wrong.push(`a loser answered ${a.code} ${a.msg}, the call made again ${again.code} ${again.msg}`);
  }
  return wrong;
}

function raceSuite(label: string, open: () => Promise<Env>): void {
  describe(label, () => {
    let env: Env;
    beforeAll(async () => {
      env = await open();
    }, 120_000);
    afterAll(async () => {
      await env?.close();
    });

    for (const r of RACES) {
      it(`${r.name}: ${r.invariant}`, async () => {
        const failures: string[] = [];
        for (let t = 0; t < TRIES; t++) {
          const s = await r.setup(env);
          const calls = r.calls(s);
          const answers = await fire(env, calls);
          const crashed = answers.filter((a) => a.code >= 500 || a.code === -1 || typeof a.code !== 'number');
          const wrong = [
            ...crashed.map((a) => `${a.call.route} answered ${a.code} ${a.msg}`),
            ...(await r.check(env, s, answers)),
            ...(r.once ? await once(env, calls, answers) : []),
          ];
          if (wrong.length) failures.push(`try ${t + 1}: ${[...new Set(wrong)].join('; ')}`);
        }
        console.log(`${label} | ${r.name} | ${r.invariant} | held in ${TRIES - failures.length} of ${TRIES}`);
        expect(failures).toEqual([]);
      }, 120_000);
    }

    it('sendMessage of someone blocked meanwhile (黑名单): each send refused or delivered, none begun after the block’s answer delivered', async () => {
      const failures: string[] = [];
      for (let t = 0; t < TRIES; t++) {
        const [a, b] = [await env.user(), await env.user()];
        await befriend(env, a, b);
        const socket = await TestSocket.bound({ url: env.url(0) }, a.userId, a.token);
        const sends: Array<{ id: string; after: boolean; code: number }> = [];
        let blockedAt = Infinity;
        let done = false;
        // Four of b's devices write on every node while a blocks b; each goes on a little past the block.
        const writer = async (device: number) => {
          let past = 0;
          for (let i = 0; !done || past < 3; i++) {
            const id = randomUUID();
            const after = performance.now() > blockedAt;
            const res = await env.call(
              device % env.nodes,
              'sendMessage',
              { id, toContactId: a.userId, type: 'text', content: `d${device} n${i}` },
              b,
            );
            sends.push({ id, after, code: res.code });
            if (after) past += 1;
          }
        };
        const writers = [0, 1, 2, 3].map(writer);
        await new Promise((r) => setTimeout(r, 20));
        const block = await env.call(env.nodes - 1, 'blockAdd', { user_id: b.userId }, a);
        blockedAt = performance.now();
        done = true;
        await Promise.all(writers);
        await new Promise((r) => setTimeout(r, 300));
        await socket.roundTrip();
        socket.close();

        const wrong: string[] = [];
        expectThat(wrong, block.code === 0, `blockAdd answered ${block.code} ${block.msg}`);
        const stored = new Set(
          (
            await env.db
              .selectFrom('messages')
              .select('client_id')
              .where('from_user', '=', b.userId)
              .where('chat_key', 'not like', 'g:%')
              .execute()
          ).map((m) => m.client_id),
        );
        const pushed = new Set(
          socket.frames
            .filter((f) => f.type === 'chatMessage' && f.data.fromUser?.user_id === b.userId)
            .map((f) => f.data.id),
        );
        for (const x of sends) {
          if (x.after && x.code === 0) wrong.push('a send begun after the block’s answer was delivered');
          if (x.code !== 0 && x.code !== ErrorCodes.NotFriendChat) wrong.push(`a send answered ${x.code}`);
          if ((x.code === 0) !== stored.has(x.id))
            wrong.push(`a send answered ${x.code} is ${stored.has(x.id) ? '' : 'not '}stored`);
          if (x.code !== 0 && pushed.has(x.id)) wrong.push('a refused send was pushed');
        }
        expectThat(
          wrong,
          sends.some((x) => x.after),
          'no send began after the block',
        );
        if (wrong.length) failures.push(`try ${t + 1}: ${[...new Set(wrong)].join('; ')}`);
      }
      console.log(`${label} | sendMessage against blockAdd | held in ${TRIES - failures.length} of ${TRIES}`);
      expect(failures).toEqual([]);
    }, 120_000);
  });
}

let accounts = 0;
const account = () => `race${process.pid}x${(accounts += 1)}`;

async function makeUser(db: Db, sessions: SessionService): Promise<User> {
  const row = await db.insertInto('users').values(userRow(account())).returning('id').executeTakeFirstOrThrow();
  const session = await sessions.create(row.id, { cid: '', isMobile: false, userAgent: 'test', ip: '127.0.0.1' });
  return { userId: row.id, token: `bearer ${session.token}` };
}

raceSuite('concurrency [sqlite, one server]', async () => {
  const server: TestServer = await startServer('sqlite');
  await server.ctx.config.set('rateLimits.anyCall.perMinute', '100000');
  await server.ctx.config.set('rateLimits.sendMessage.perSecond', '1000');
  return {
    db: server.ctx.db,
    dialect: 'sqlite',
    nodes: 1,
    call: (_node, name, body, as) => server.call(name, body as Record<string, unknown>, { token: as.token }),
    url: () => server.url,
    user: () => makeUser(server.ctx.db, server.ctx.sessions),
    close: () => server.close(),
  };
});

describeWithRedis('concurrency across two nodes', (redisUrl) => {
  if (!dbTargets().includes('postgres')) return;
  raceSuite('concurrency [postgres, two nodes]', async () => {
    const cluster = await Cluster.start('postgres', redisUrl, 2);
    const opened = openDb({ databaseUrl: cluster.databaseUrl, dataDir: cluster.dataDir });
    await raiseRateLimits(opened);
    const sessions = new SessionService(createRepos(opened.db, opened.dialect), Date.now);
    return {
      db: opened.db,
      dialect: opened.dialect,
      nodes: cluster.nodes.length,
      call: (node, name, body, as) => cluster.nodes[node % cluster.nodes.length]!.call(name, body, as.token),
      url: (node) => cluster.nodes[node % cluster.nodes.length]!.url,
      user: () => makeUser(opened.db, sessions),
      close: async () => {
        await opened.close();
        await cluster.stop();
      },
    };
  });
});
