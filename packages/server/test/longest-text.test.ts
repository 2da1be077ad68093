/**
 * The longest text every field takes, stored. From each route's schema the suite reads every
 * string field's bound (characters counted as graphemes, or UTF-16 units) and fills it to the
 * brim with the costliest characters that bound admits: a letter carrying 15 marks (16 code
 * points, 31 bytes, one character) under a limit in characters, a CJK character (3 bytes) under a
 * limit in units. It calls the route, expects no 5xx and success, and finds the value in the
 * database whole. A column narrower than its schema (varchar(n) counts code points on PostgreSQL)
 * fails here. A field that is not stored, or that the route's rules shape beyond its schema, is
 * named in NOT_STORED with the reason; a new field is one or the other before this suite passes.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { graphemeMax, routes, type RouteName } from '@sparrow/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type * as z from 'zod';
import { AdminService } from '../src/modules/admin';
import { describeEachDb, signUp, startServer, type DbTarget, type TestServer } from './harness';

type Schema = z.ZodType;
const defOf = (s: Schema): any => (s as any)._zod.def;

/** A bounded string field of a body: where it is, and its bound. */
interface TextField {
  path: string[];
  graphemes?: number;
  units?: number;
  /** A pattern or format decides its shape, not its length alone. */
  shaped: boolean;
}

/** Every string field of a schema with a bound, nested objects' too (arrays' elements are not fields a body names). */
function textFields(schema: Schema, path: string[] = [], into: TextField[] = []): TextField[] {
  const def = defOf(schema);
  const graphemes = graphemeMax(schema);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
    case 'readonly':
      if (graphemes === undefined) return textFields(def.innerType, path, into);
      break;
    case 'pipe':
      // A preprocess (blanksAbsent around every body) is a pipe from a transform.
      return textFields(defOf(def.in).type === 'transform' ? def.out : def.in, path, into);
    case 'union':
      for (const o of def.options) textFields(o, path, into);
      return into;
    case 'object':
      for (const [k, v] of Object.entries(def.shape)) textFields(v as Schema, [...path, k], into);
      return into;
  }
  if (def.type !== 'string' && graphemes === undefined) return into;
  const checks: any[] = (def.checks ?? []).map((c: any) => c._zod.def);
  const units = checks.find((c) => c.check === 'max_length')?.maximum as number | undefined;
  const shaped = Boolean(def.format) || checks.some((c) => c.check === 'string_format');
  if (graphemes === undefined && units === undefined) return into;
  if (!into.some((f) => f.path.join('.') === path.join('.'))) into.push({ path, graphemes, units, shaped });
  return into;
}

/**
 * Fields not stored as sent, by `route.field` or `route.*`, and why. Credentials are hashed or
 * compared, words are searched for, ids name rows, tokens are checked.
 */
const NOT_STORED: Record<string, string> = {
  'login.*': 'credentials and the client id compared, not stored',
  'register.account': 'an account has its own characters (ACCOUNT_CHARS), within the column by units',
  'register.password': 'hashed',
  'register.email': 'an address (format), within the column by units',
  'register.code': 'a code compared',
  'register.inviteCode': 'an invite compared',
  'logout.*': 'names a socket',
  'sendCode.*': 'an address a code is sent to',
  'bindUid.*': 'needs a live socket; the client id names it',
  'bindGroup.*': 'needs a live socket',
  'checkVersion.*': 'compared with the server version',
  'userInfoqq.*': 'a QR token checked',
  'scanUser.*': 'a QR token checked',
  'scanGroup.*': 'a QR token checked; the scan keeps its group, generation and expiry, not the token',
  'searchUser.*': 'words searched for',
  'updateUserInfo.email': 'an address (format), within the column by units',
  'editPassword.*': 'hashed or compared',
  'editAccount.*': 'an account or address changed with a code, its own characters',
  'getContactInfo.*': 'names a contact',
  'getMessageList.*': 'filters',
  'searchMessage.*': 'words searched for',
  'sendMessage.toContactId': 'names a contact',
  'forwardMessage.*': 'names contacts',
  'setMsgIsRead.*': 'names messages',
  'readAtMsg.*': 'names a contact',
  'undoMessage.*': 'names a message',
  'delMessage.*': 'names a message',
  'removeMessage.*': 'names a message',
  'reactMessage.id': 'names a message',
  'reactMessage.emoji':
    'one emoji: a single grapheme of at most REACTION_EMOJI_UNITS_MAX units, within its varchar(32) column',
  'messageReactions.*': 'names a message and an emoji asked for',
  'editMessage.id': 'names a message',
  'messageEdits.*': 'names a message',
  'pinMessage.id': 'names a message',
  'groupReadList.id': 'names a message',
  'chainJoin.id': 'names a message',
  'chainWithdraw.*': 'names a message',
  'chainClose.*': 'names a message',
  'chainInfo.*': 'names a message',
  'chainStart.toContactId': 'names a group',
  'createPoll.toContactId': 'names a group',
  'votePoll.*': 'names a message',
  'closePoll.*': 'names a message',
  'pollVoters.*': 'names a message',
  'setStatus.emoji': 'one emoji (isStatusEmoji): the longest text the schema bounds is not one, and is refused',
  'favoriteList.*': 'filters and words searched for',
  'forwardMessages.note':
    'sent on as a text message: the same TEXT_MESSAGE_MAX and plainText as sendMessage.content, whose case stores it whole',
  'delChat.*': 'names a contact',
  'setChatTop.*': 'names a contact',
  'isNotice.*': 'names a contact',
  'sendToMsg.*': 'call signalling passed to the other party, not stored',
  'groupInfo.*': 'names a group',
  'groupUserList.*': 'names a group',
  'getAllUser.*': 'names a group',
  'addGroupUser.*': 'names a group',
  'removeUser.*': 'names a group',
  'setManager.*': 'names a group',
  'changeOwner.*': 'names a group',
  'setNoSpeak.*': 'names a group',
  'groupSetting.*': 'names a group',
  'editGroupName.id': 'names a group',
  'setNotice.id': 'names a group',
  'setNotice.notice': 'HTML whose visible text has its own limit (ANNOUNCEMENT_MAX); the column is text',
  'removeGroup.*': 'names a group',
  'clearMessage.*': 'names a group',
  'groupInfoqq.*': 'a QR token checked',
  'joinGroup.*': 'a group and a QR token',
  'updateCard.group_id': 'names a group',
  'uploadGroupAvatar.*': 'multipart: a file upload',
  'uploadFile.*': 'multipart: a file upload',
  'fileList.*': 'words searched for',
  'friendAdd.token': 'a QR token checked',
  'pushSubscribe.*': 'a URL and keys of a set form (the SSRF rules decide the URL)',
  'pushUnsubscribe.*': 'names a subscription',
  'botEdit.webhook_url': 'a URL of a set form (the outbound gate decides it; bots.test.ts), in a text column',
  'groupRobotList.*': 'names a group',
  'manageUserList.*': 'words searched for',
  'manageUserCreate.account': 'an account has its own characters, within the column by units',
  'manageUserCreate.password': 'hashed',
  'manageUserPassword.*': 'hashed',
  'manageGroupList.*': 'words searched for',
  'manageGroupMembers.*': 'names a group',
  'manageGroupDisband.*': 'names a group',
  'manageGroupOwner.*': 'names a group',
  'manageConfigSet.*': "each setting's value has its own schema (CONFIG_KEYS); the column is text",
  'manageInviteRevoke.*': 'names an invite',
  'manageAuditList.*': 'a filter',
  'accountDelete.*': 'a password compared',
  'manageKeywordListUpdate.name':
    'the same column and limit as manageKeywordListCreate.name, whose case stores it whole',
  'manageKeywordWords.*': 'names a list; words searched for',
  'manageKeywordAdd.*': 'names a list; the text is split into words, one row each within KEYWORD_WORD_MAX',
  'manageKeywordTest.*': 'a text tested against the lists, not stored',
  'loginTwoStep.*': "a code or a passkey's assertion checked and the client id compared, not stored",
  'passkeyLogin.*': 'an assertion verified and the client id compared, not stored',
  'passkeyRegister.*': 'an attestation verified (the credential stored as the library reads it); the name trimmed',
  'passkeyRename.name': 'trimmed, then stored in a text column as at registration',
  'passkeyRegisterOptions.password': 'a password checked, not stored',
  'passkeyRemove.password': 'a password checked, not stored',
  'totpDisable.password': 'a password checked, not stored',
  'ssoExchange.client_id': 'the client id compared, not stored',
  'manageSsoSave.*': "a provider's settings: trimmed, the scopes normalised, the secret stored sealed",
  'manageLdapSet.*': "the directory's settings: one server-only JSON value, the password stored sealed",
};

const notStored = (route: string, field: TextField) =>
  NOT_STORED[`${route}.${field.path.join('.')}`] ?? NOT_STORED[`${route}.*`];

/** One character of 16 code points and 16 UTF-16 units: a letter (the case's mark) and 15 combining marks. */
const heavy = (letter: string) => `${letter}${'\u0301'.repeat(15)}`;

/** The longest value of a field, its first character telling this case from every other. */
function longest(field: TextField, mark: string): string {
  if (field.graphemes !== undefined) {
    const n = Math.min(field.graphemes, field.units === undefined ? Infinity : Math.floor(field.units / 16));
    return heavy(mark) + heavy('a').repeat(n - 1);
  }
  return mark + '中'.repeat(field.units! - 1);
}

/** Whether some text column of some table holds `value` (inside JSON or HTML too). */
async function stored(server: TestServer, target: DbTarget, value: string): Promise<boolean> {
  const db = server.ctx.db;
  const columns =
    target === 'postgres'
      ? (
          await sql<{ t: string; c: string }>`
            select table_name as t, column_name as c from information_schema.columns
            where table_schema = current_schema() and data_type in ('text', 'character varying')`.execute(db)
        ).rows
      : (
          await sql<{ t: string; c: string }>`
            select m.name as t, p.name as c from sqlite_master m join pragma_table_info(m.name) p
            where m.type = 'table' and (lower(p.type) like '%char%' or lower(p.type) = 'text')`.execute(db)
        ).rows;
  for (const { t, c } of columns) {
    const found =
      target === 'postgres'
        ? await sql`select 1 from ${sql.table(t)} where strpos(${sql.ref(c)}, ${value}) > 0 limit 1`.execute(db)
        : await sql`select 1 from ${sql.table(t)} where instr(${sql.ref(c)}, ${value}) > 0 limit 1`.execute(db);
    if (found.rows.length > 0) return true;
  }
  return false;
}

describeEachDb('the longest text each field takes, stored', (target) => {
  let server: TestServer;
  let alice: Awaited<ReturnType<typeof signUp>>;
  let bob: Awaited<ReturnType<typeof signUp>>;
  let carol: Awaited<ReturnType<typeof signUp>>;
  let root: Awaited<ReturnType<typeof signUp>>;
  let groupId: string;
  let robotId: number;
  let botId: number;
  let chainMsgId: number;
  let postId: number;
  let departmentId: number;
  let accounts = 0;

  beforeAll(async () => {
    server = await startServer(target);
    await server.ctx.config.set('sysInfo.registerInterval', '0');
    await server.ctx.config.set('sysInfo.runMode', '1');
    await server.ctx.config.set('rateLimits.anyCall.perMinute', '100000');
    await server.ctx.config.set('rateLimits.manage.perMinute', '100000');
    alice = await signUp(server, 'alice_long');
    bob = await signUp(server, 'bob_long');
    carol = await signUp(server, 'carol_long');
    root = await signUp(server, 'root_long');
    await new AdminService(server.ctx.repos, server.ctx.config, server.clock.now).users.setRole('root_long', 'admin');
    await server.call('friendAdd', { user_id: bob.userId }, { token: alice.token });
    const requests = await server.call('friendIndex', { is_mine: 0 }, { token: bob.token });
    const request = requests.data.find((r: any) => r.create_user_info.user_id === alice.userId);
    await server.call('friendUpdate', { friend_id: request.friend_id, status: 1 }, { token: bob.token });
    const group = await server.call('groupAdd', { user_ids: [bob.userId, carol.userId] }, { token: alice.token });
    groupId = group.data.id;
    const chain = await server.call(
      'chainStart',
      { id: randomUUID(), toContactId: groupId, title: 'Long' },
      { token: alice.token },
    );
    chainMsgId = chain.data.msg_id;
    const post = await server.call('momentsPublish', { id: randomUUID(), content: 'first' }, { token: alice.token });
    postId = post.data.id;
    const dep = await server.call('manageDepartmentCreate', { name: 'Long' }, { token: root.token });
    departmentId = dep.data.id;
    const robot = await server.call('groupRobotAdd', { group_id: groupId, name: 'Long' }, { token: alice.token });
    robotId = robot.data.id;
    const bot = await server.call('botCreate', { name: 'Long' }, { token: alice.token });
    botId = bot.data.id;
  });

  afterAll(async () => {
    await server.close();
  });

  /** A body each route succeeds with, before one field is filled to its longest; who calls it. */
  function base(route: RouteName): { body: Record<string, unknown>; token?: string } | undefined {
    const as = (body: Record<string, unknown>, who = alice) => ({ body, token: who.token });
    accounts += 1;
    const bodies: Partial<Record<RouteName, () => { body: Record<string, unknown>; token?: string }>> = {
      register: () => ({ body: { account: `long_${accounts}`, password: 'secret123', realname: 'Long' } }),
      updateUserInfo: () => as({}),
      userSetting: () => as({}),
      sendMessage: () => as({ id: randomUUID(), toContactId: groupId, is_group: 1, type: 'text', content: 'hello' }),
      groupAdd: () => as({ user_ids: [bob.userId, carol.userId] }),
      chainStart: () => as({ id: randomUUID(), toContactId: groupId, title: 'Long' }),
      chainJoin: () => as({ id: chainMsgId, text: 'Long' }),
      createPoll: () => as({ id: randomUUID(), toContactId: groupId, question: 'Long', options: ['A', 'B'] }),
      setStatus: () => as({ text: 'Long' }),
      editGroupName: () => as({ id: groupId, displayName: 'Long' }),
      updateCard: () => as({ group_id: groupId, nickname: 'Long' }),
      friendAdd: () => as({ user_id: carol.userId }, { ...root, token: root.token }),
      friendSetNickname: () => as({ friend_id: bob.userId, nickname: 'Long' }),
      momentsPublish: () =>
        as({
          id: randomUUID(),
          content: 'long',
          location: { name: 'Here', address: 'There', latitude: 31.2, longitude: 121.5 },
        }),
      momentsComment: () => as({ id: postId, content: 'long' }),
      manageUserCreate: () => as({ account: `made_long_${accounts}`, password: 'secret123', realname: 'Long' }, root),
      manageNoticePublish: () => as({ title: 'Long', notice: 'Long' }, root),
      manageDepartmentCreate: () => as({ name: 'Long' }, root),
      manageDepartmentRename: () => as({ id: departmentId, name: 'Long' }, root),
      report: () => as({ kind: 'user', id: carol.userId, reason: 'other' }, bob),
      manageKeywordListCreate: () => as({ name: 'Long', action: 'replace' }, root),
      tokenCreate: () => as({ name: 'Long', scopes: ['messages:read'], days: 0 }),
      groupRobotAdd: () => as({ group_id: groupId, name: 'Long' }),
      groupRobotEdit: () => as({ robot_id: robotId, name: 'Long' }),
      botCreate: () => as({ name: 'Long' }, carol),
      botEdit: () => as({ bot_id: botId, name: 'Long', webhook_url: '' }),
    };
    return bodies[route]?.();
  }

  const cases = (Object.keys(routes) as RouteName[]).flatMap((route) =>
    textFields(routes[route].body as Schema).map((field) => ({ route, field })),
  );

  it('every bounded text field of the route table is stored whole or named as not stored', () => {
    const unplaced = cases
      .filter(({ route, field }) => !notStored(route, field) && !base(route))
      .map(({ route, field }) => `${route}.${field.path.join('.')}`);
    expect(unplaced, 'fields neither stored by a base body here nor in NOT_STORED').toEqual([]);
  });

  let n = 0;
  it.each(
    cases
      .filter(({ route, field }) => !notStored(route, field))
      .map((c) => [`${c.route}.${c.field.path.join('.')}`, c]),
  )('%s', async (_name, { route, field }) => {
    n += 1;
    const value = longest(field, String.fromCodePoint(0x4e00 + n));
    const { body, token } = base(route)!;
    let at: Record<string, unknown> = body;
    for (const k of field.path.slice(0, -1)) at = (at[k] ??= {}) as Record<string, unknown>;
    at[field.path.at(-1)!] = value;
    expect(routes[route].body.safeParse(body).success, 'the schema takes the value').toBe(true);
    const res = await server.callRaw(route, body, { token, lang: 'en' });
    expect(res.status).toBeLessThan(500);
    expect(res.json, `${route} answered`).toMatchObject({ code: 0 });
    expect(await stored(server, target, value), 'the value is in the database whole').toBe(true);
  });
});
