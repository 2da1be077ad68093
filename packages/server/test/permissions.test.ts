import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import {
  ErrorCodes,
  EXPORT_DOWNLOAD_PATH,
  KEYWORD_LIST_NAME_MAX,
  REPORT_TEXT_MAX,
  negotiateLocale,
  routes,
  translate,
  type ErrorName,
  type MessageKey,
  type RouteName,
  parseQrLink,
  GroupRoles,
  DEFAULT_GROUP_SETTING,
} from '@sparrow/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashPassword } from '../src/lib/crypto';
import { FriendRepo } from '../src/modules/friend/repo';
import { GroupRepo } from '../src/modules/group/repo';
import { MomentReactionRepo } from '../src/modules/moments/reactions-repo';
import { FileService } from '../src/modules/upload/files';
import { describeEachDb, LANGS, signUp, startServer, TestSocket, userRow, type TestServer } from './harness';

/**
 * Who may use which id (docs/protocol.md §3, docs/style.md habit 7), walked from the route table: every route
 * either takes no id of anything another user owns (NO_FOREIGN_ID, with the reason) or has rows
 * in MATRIX, so a route added without deciding its permissions fails here. Each row aims a route
 * at one thing of alice's and sends it as each actor below, then checks that an id that does not
 * exist is answered exactly as one that exists but is not the caller's (docs/style.md: "not found" and
 * "not yours" answered alike). The role matrix of group management is group-permissions.test.ts.
 */

/** Routes that take no id of another user's thing, each with why no access check applies. */
const NO_FOREIGN_ID: Partial<Record<RouteName, string>> = {
  login: 'public: an account and a password or code, no id',
  register: 'public: creates an account of its own',
  sendCode: 'public: names an account; the code goes to that account, never to the caller',
  getSystemInfo: 'public: the same configuration for everyone (ICE credentials only with a session)',
  checkVersion: 'public: compares a version string',
  qrLoginCreate: 'public: makes a login code of its own',
  qrLoginState:
    'public: a login code with the secret only the page that made it holds; a wrong secret answers as no code (qr-login.test.ts)',
  qrLoginScan:
    'a login code is the permission to scan it; one scanned by someone else answers as no code (qr-login.test.ts)',
  qrLoginConfirm: 'a login code the caller scanned; another’s answers as no code (qr-login.test.ts)',
  qrLoginCancel: 'a login code the caller scanned; another’s answers as no code (qr-login.test.ts)',
  webSessions: 'the caller’s own sessions made by QR login',
  ssoProviders: 'public: the enabled providers’ ids and labels, the same for everyone',
  ssoExchange:
    'public: a one-time code is the permission, good once; an unknown, spent or expired one answers alike (oidc.test.ts)',
  webSessionEnd: 'a session of the caller’s own made by QR login; another’s answers as none (qr-login.test.ts)',
  sessions: 'the caller’s own sessions (sessions.test.ts)',
  sessionEndOthers: 'ends the caller’s own other sessions (sessions.test.ts)',
  passkeyLoginOptions: 'public: a challenge of its own; with a ticket, only that sign-in’s passkeys (passkeys.test.ts)',
  passkeyLogin: 'public: a signature by a passkey proves whose it is (passkeys.test.ts)',
  passkeyRegisterOptions: 'adds to the caller’s own account',
  passkeyRegister: 'adds to the caller’s own account, for a challenge handed to the caller (passkeys.test.ts)',
  passkeyList: 'the caller’s own passkeys',
  tokenCreate: 'adds a personal access token to the caller’s own account',
  tokenList: 'the caller’s own personal access tokens',
  botCreate: 'adds a bot the caller owns (bots.test.ts)',
  botList: 'the caller’s own bots',
  checkuser: 'the session’s own user',
  loginTwoStep:
    'public: a ticket only the sign-in that proved the first factor holds; an unknown one answers as an expired one (two-step.test.ts)',
  twoStepStatus: 'the caller’s own second factors',
  totpBegin: 'the caller’s own authenticator app',
  totpConfirm: 'the caller’s own authenticator app, proved by its code',
  totpDisable: 'the caller’s own authenticator app, proved by the password and a code (two-step.test.ts)',
  recoveryCodesNew: 'the caller’s own recovery codes, proved by a code of the app',
  logout: 'ends the caller’s own session; client_id is not used',
  searchUser: 'exact keywords, no id; what it lists is any signed-in user’s to see',
  updateUserInfo: 'the caller’s own profile',
  setStatus: 'the caller’s own status; who is told of it is presence-status.test.ts’s',
  editPassword: 'the caller’s own password',
  editAccount: 'the caller’s own account, proved by codes',
  userSetting: 'the caller’s own app settings, kept on the device; only checked',
  uploadAvatar: 'the caller’s own avatar',
  getContacts: 'the caller’s own list',
  getDepartments: 'the organisation’s departments, to everyone in it (runMode 1); nothing otherwise',
  sync: 'after_id is a cursor; only messages addressed to or sent by the caller come back',
  getAdminNotice: 'the announcement, the same for everyone',
  fileList: 'files of the caller’s own chats',
  getAllGroup: 'the caller’s own groups; role is a filter',
  uploadEmoji: 'into the caller’s own collection',
  emojiIndex: 'the caller’s own collection',
  friendIndex: 'the caller’s own requests',
  iceServers: 'the caller’s own TURN credentials',
  momentsList:
    'user_id only narrows the feed to one author: every post, like and comment comes through the visibility rules (moments.test.ts holds their matrix)',
  momentsNotices: 'the caller’s own notices, from the caller’s friends only',
  momentsUnread: 'the caller’s own count',
  momentsReadNotices: 'the caller’s own notices',
  momentsSetting:
    'the caller’s own settings; user ids only name whom the caller hides from or skips; user_id reads only a friend’s cover, and a stranger’s reads as none (moments.test.ts)',
  pushKey: 'the server’s public key and the caller’s own preview choice',
  pushSubscribe:
    'the caller’s own browser; the endpoint is an unguessable address its push service gave that browser, so a known one moves to the caller',
  pushUnsubscribe:
    'an endpoint of the caller’s own; another user’s endpoint is left alone and answers the same (webpush.test.ts)',
  pushSetting: 'the caller’s own preview choice',
  favoriteList: 'the caller’s own favourites (favorites.test.ts)',
  accountDelete: 'deletes the caller’s own account, confirmed with its password (account-delete.test.ts)',
  exportRequest:
    'starts an export of the caller’s own data (data-export.test.ts; its download answers 404 to anyone else there)',
  blockList: 'the caller’s own block list (block.test.ts)',
  blockDel: 'takes a person off the caller’s own block list; anyone not on it is passed over alike (block.test.ts)',
  reportMine: 'the caller’s own reports and the warnings they were given (reports.test.ts)',
  // Administration (docs/protocol.md §8) names anyone's ids on purpose; only an admin may call it at all,
  // which admin.test.ts checks route by route for admins, plain users and signed-out callers.
  ...Object.fromEntries(
    (Object.keys(routes) as RouteName[])
      .filter((n) => routes[n].admin)
      .map((n) => [n, 'administration: a user whose role is admin, on anyone (admin.test.ts)']),
  ),
};

/**
 * The actors, each someone relative to alice's things: alice owns group G, a message in it and
 * private messages, a file, stickers and friendships. Dan administers G and Carl is a member;
 * Erin was removed from G and Fay left it; Bob is alice's friend, Gus her ex-friend (she deleted
 * the friendship after messaging him); Sam has no relation. Every row also runs signed out (-1).
 * Hal is alice's friend whom she blocked (黑名单): the rows where a block matters say what he is
 * answered (`blocked`), which for a refusal is what a non-friend or an outsider gets.
 */
const ACTORS = ['owner', 'admin', 'member', 'removed', 'left', 'friend', 'exFriend', 'stranger'] as const;
type Actor = (typeof ACTORS)[number];
/** Hal, alice's friend whom she blocked: run only by the rows that name his answer. */
type Extra = 'blocked';
type Caller = Actor | Extra | 'signedOut';
const CAST = {
  owner: 'alice',
  admin: 'dan',
  member: 'carl',
  removed: 'erin',
  left: 'fay',
  friend: 'bob',
  exFriend: 'gus',
  stranger: 'sam',
  blocked: 'hal',
} as const satisfies Record<Actor | Extra, string>;
/** Tom is a member acted upon, Ivy someone to invite, Dora a disabled account. */
const PEOPLE = [...Object.values(CAST), 'tom', 'ivy', 'dora'] as const;
type Name = (typeof PEOPLE)[number];

const OK = 0;
/** An answer: success (0) or a named error, compared with its code and its message. */
type Answer = typeof OK | ErrorName;
/** One answer per actor, in ACTORS order. */
type Answers = readonly [Answer, Answer, Answer, Answer, Answer, Answer, Answer, Answer];
type Body = Record<string, unknown>;

interface Row {
  /** What the id names, for the test's name. */
  target: string;
  /** The request aimed at the target, as `who` sends it. */
  body: (s: Scene, who: Caller) => Body | Promise<Body>;
  /** The same request aimed at ids that do not exist (sent by the stranger). */
  missing: (s: Scene) => Body[] | Promise<Body[]>;
  /** What a missing id answers: every actor answered this must get the very same code and msg. */
  gone: Answer;
  expect: Answers;
  /**
   * For ids anyone signed in may use (users): an id that exists but that no one may see (a
   * disabled account), answered as a missing one.
   */
  hidden?: (s: Scene) => Body | Promise<Body>;
  /**
   * Allowed calls change the target: each of these actors (every allowed one for `true`) acts on
   * a scene of its own, after the others.
   */
  changes?: true | readonly Actor[];
  /** After the refused (or silently ignored) calls: the target is as it was. */
  intact?: (s: Scene) => Promise<void>;
  /** More to check in an answer. */
  check?: (data: unknown, who: Actor | Extra) => void;
  /** A difference between "missing" and "not yours" that is known and not yet fixed, and why. */
  gap?: string;
  /** What Hal, alice's friend whom she blocked, is answered; a row without it leaves him out. */
  blocked?: Answer;
}

const NM = 'NotMember';
const FB = 'Forbidden';
const NY = 'NotYourMessage';
const MNF = 'MessageNotFound';
const NF = 'NotFound';
const UNF = 'UserNotFound';
const NFC = 'NotFriendChat';
const NFR = 'NotFriends';
const CNL = 'ClientNotLive';
const MOM = 'MomentNotFound';
const FNF = 'FavoriteNotFound';
const MCN = 'MomentCommentNotFound';
const RS = 'ReportSelf';

const MEMBERS: Answers = [OK, OK, OK, NM, NM, NM, NM, NM];
const ADMINS: Answers = [OK, OK, FB, NM, NM, NM, NM, NM];
const OWNER: Answers = [OK, FB, FB, NM, NM, NM, NM, NM];
const EVERYONE: Answers = [OK, OK, OK, OK, OK, OK, OK, OK];
/** Alice and her friend Bob (a post for all her friends). */
const FRIENDS: Answers = [OK, MOM, MOM, MOM, MOM, OK, MOM, MOM];

const NO_GROUP = 'group-999999';
const NO_USER = 999_999;
const NO_ID = 999_999_999;

/** Someone in a scene: their user id and, unless disabled, a session. */
interface Person {
  id: number;
  token: string | undefined;
}

/** A message as a client names it: by msg_id or by its client-made id. */
interface MessageRef {
  msg_id: number;
  id: string;
}

/** A token with a wrong signature: a made-up QR code of a group (`group-N`) or a user (a number). */
const forgedToken = (id: string | number) =>
  `${typeof id === 'number' ? `u${id}` : `g${id.slice('group-'.length)}`}.${Date.now() + 86_400_000}.${'A'.repeat(22)}`;

/** A route aimed at group G; the missing ids are a group that never was and one that was disbanded. */
function groupRow(
  target: string,
  make: (gid: string, s: Scene, who: Caller) => Body | Promise<Body>,
  expect: Answers,
  more: Partial<Row> = {},
): Row {
  return {
    target,
    body: async (s, who) => make((await s.group()).gid, s, who),
    missing: async (s) => [await make(NO_GROUP, s, 'stranger'), await make(await s.disbanded(), s, 'stranger')],
    gone: NM,
    expect,
    ...more,
  };
}

/** A route aimed at a robot of G; the missing ids are a robot that never was and one of a disbanded group. */
function robotRow(make: (robotId: number) => Body, more: Partial<Row> = {}): Row {
  return {
    target: 'a robot of a group',
    body: async (s) => make(await s.robot()),
    missing: async (s) => [make(NO_ID), make(await s.disbandedRobot())],
    gone: NF,
    expect: [OK, OK, FB, NF, NF, NF, NF, NF],
    ...more,
  };
}

/** A route aimed at alice's bot; the missing id is a bot that never was. */
function botRow(make: (botId: number) => Body, more: Partial<Row> = {}): Row {
  return {
    target: 'alice’s bot',
    body: async (s) => make(await s.bot()),
    missing: () => [make(NO_ID)],
    gone: NF,
    expect: [OK, NF, NF, NF, NF, NF, NF, NF],
    blocked: NF,
    ...more,
  };
}

/**
 * A route aimed at a user (alice). A user's id is not hidden from anyone signed in (getUserInfo
 * answers any of them, and a chat with anyone may be opened: it shows only what the two
 * exchanged), so the id that exists and must still read as missing is a disabled account's.
 */
function personRow(target: string, make: (userId: number) => Body, expect: Answers): Row {
  return {
    target,
    body: (s) => make(s.person('owner').id),
    missing: () => [make(NO_USER)],
    hidden: (s) => make(s.people.dora.id),
    gone: UNF,
    expect,
  };
}

/** A route aimed at a message, by msg_id and by client id. */
function messageRows(
  target: string,
  pick: (s: Scene) => Promise<MessageRef>,
  expect: Answers,
  more: Partial<Row> = {},
): Row[] {
  return (['msg_id', 'id'] as const).map((key) => ({
    target: `${target} (${key === 'id' ? 'client id' : 'msg_id'})`,
    body: async (s) => ({ id: (await pick(s))[key] }),
    missing: () => [{ id: key === 'id' ? randomUUID() : NO_ID }],
    gone: MNF,
    expect,
    ...more,
  }));
}

/** messageRows whose body carries more than the message (an emoji, a new text). */
function messageRowsWith(
  target: string,
  pick: (s: Scene) => Promise<MessageRef>,
  extra: Body,
  expect: Answers,
  more: Partial<Row> = {},
): Row[] {
  return messageRows(target, pick, expect, more).map((row) => ({
    ...row,
    body: async (s, who) => ({ ...(await row.body(s, who)), ...extra }),
    missing: async (s) => (await row.missing(s)).map((b) => ({ ...b, ...extra })),
  }));
}

/** messageRows for pinMessage: the same message, pinned. */
function pinRows(target: string, pick: (s: Scene) => Promise<MessageRef>, expect: Answers): Row[] {
  return messageRows(target, pick, expect).map((row) => ({
    ...row,
    body: async (s, who) => ({ ...(await row.body(s, who)), pin: 1 }),
    missing: async (s) => (await row.missing(s)).map((b) => ({ ...b, pin: 1 })),
  }));
}

const text = (toContactId: string | number, content = 'hi') => ({
  id: randomUUID(),
  toContactId,
  type: 'text',
  content,
});

/** Alice's message in G, a member's message in G, and alice's private messages to Bob and to Gus. */
const groupMsg = async (s: Scene) => (await s.group()).msg;
const memberMsg = async (s: Scene) => (await s.group()).memberMsg;
const toBob = async (s: Scene) => s.toBob;
const toGus = async (s: Scene) => s.toGus;
/** A sign-up chain alice started in G. */
const chainMsg = async (s: Scene) => s.chain();
/** A named poll alice started in G, and an anonymous one. */
const pollMsg = async (s: Scene) => s.poll(0);
const anonPollMsg = async (s: Scene) => s.poll(1);

const MATRIX: Partial<Record<RouteName, Row[]>> = {
  offline: [
    {
      target: 'another user’s id (user_id)',
      body: async (s) => ({ user_id: s.person('owner').id }),
      missing: async () => [{ user_id: NO_USER }],
      gone: FB,
      expect: [OK, FB, FB, FB, FB, FB, FB, FB],
    },
  ],
  bindUid: [
    {
      target: 'another user’s id (user_id)',
      body: async (s, who) => ({ client_id: (await s.socket(who)).clientId, user_id: s.person('owner').id }),
      missing: async (s) => [{ client_id: (await s.socket('stranger')).clientId, user_id: NO_USER }],
      gone: FB,
      expect: [OK, FB, FB, FB, FB, FB, FB, FB],
    },
    {
      target: 'another user’s socket (client_id)',
      body: async (s, who) => ({ client_id: (await s.socket('owner')).clientId, user_id: s.person(who).id }),
      missing: (s) => [{ client_id: randomUUID(), user_id: s.person('stranger').id }],
      gone: CNL,
      expect: [OK, CNL, CNL, CNL, CNL, CNL, CNL, CNL],
    },
  ],
  bindGroup: [
    groupRow(
      'a group (group_id)',
      async (gid, s, who) => ({ client_id: (await s.socket(who)).clientId, group_id: gid }),
      MEMBERS,
    ),
    {
      target: 'another user’s socket (client_id)',
      body: async (s) => ({ client_id: (await s.socket('owner')).clientId, group_id: (await s.group()).gid }),
      missing: async (s) => [{ client_id: randomUUID(), group_id: (await s.group()).gid }],
      gone: CNL,
      expect: [OK, CNL, CNL, CNL, CNL, CNL, CNL, CNL],
    },
  ],
  getUserInfo: [
    personRow('a user (user_id)', (id) => ({ user_id: id }), EVERYONE),
    // Tom's details are withheld from Carl only: an ordinary member of the one group they share.
    {
      ...personRow('a member of a group with `profile` off (user_id)', (id) => ({ user_id: id }), EVERYONE),
      body: async (s) => ({ user_id: await s.hiddenMember() }),
      check: (data, who) => {
        const hidden = who === 'member';
        expect(data, who).toMatchObject({ profile: hidden ? 0 : 1, ...(hidden && { account: '', motto: '' }) });
      },
    },
  ],
  // Signals on a call already placed are calls.test.ts's: a third party's is answered as an unknown call id.
  sendToMsg: [
    {
      ...personRow('a user to call (toContactId)', (id) => ({ id: randomUUID(), toContactId: id, event: 'calling' }), [
        'CallSelf',
        NFR,
        NFR,
        NFR,
        NFR,
        OK,
        NFR,
        NFR,
      ]),
      // Her friend whom she blocked is refused as a non-friend is.
      blocked: NFR,
    },
  ],

  getContactInfo: [
    groupRow('a group', (gid) => ({ id: gid }), MEMBERS),
    // Alice's own id is not a contact of hers (-1 is her own chat).
    personRow('a user', (id) => ({ id }), [NF, OK, OK, OK, OK, OK, OK, OK]),
  ],
  getMessageList: [
    groupRow('a group', (gid) => ({ toContactId: gid }), MEMBERS),
    personRow('a user', (id) => ({ toContactId: id }), EVERYONE),
    groupRow(
      'a group, around one of its messages (around_id)',
      async (gid, s) => ({ toContactId: gid, around_id: (await groupMsg(s)).msg_id }),
      MEMBERS,
    ),
  ],
  searchMessage: [
    groupRow('a group', (gid) => ({ keywords: 'from the owner', toContactId: gid, is_group: 1 }), MEMBERS),
    personRow('a user', (id) => ({ keywords: 'hi', toContactId: id }), EVERYONE),
    {
      target: 'a group’s messages, by their words alone',
      body: async (s) => {
        await s.group();
        return { keywords: 'from the owner' };
      },
      missing: () => [{ keywords: 'words nobody wrote' }],
      gone: OK,
      expect: EVERYONE,
      // Only the members find it; those removed or gone no longer do.
      check: (data, who) =>
        expect((data as unknown[]).length, who).toBe(['owner', 'admin', 'member'].includes(who) ? 1 : 0),
    },
  ],
  sendMessage: [
    groupRow('a group', (gid) => text(gid), MEMBERS),
    // To her own id alice writes to her own chat; only a friend may write to her (runMode 2), and
    // not one she blocked, who is answered as a non-friend.
    { ...personRow('a user', (id) => text(id), [OK, NFC, NFC, NFC, NFC, OK, NFC, NFC]), blocked: NFC },
    {
      target: 'someone else’s file (file_id)',
      body: async (s) => ({ ...text(-1), type: 'image', content: '', file_id: await s.file() }),
      missing: () => [{ ...text(-1), type: 'image', content: '', file_id: NO_ID }],
      gone: NF,
      expect: [OK, NF, NF, NF, NF, NF, NF, NF],
    },
    {
      target: 'a message of another chat quoted (pid)',
      body: async (s) => ({ ...text(-1), pid: (await groupMsg(s)).msg_id }),
      missing: () => [{ ...text(-1), pid: NO_ID }],
      gone: OK,
      expect: EVERYONE,
      // A quote only of a message of the same chat: the quoted text never reaches anyone else.
      check: (data, who) => expect((data as { pid: number }).pid, `${who}'s quote`).toBe(0),
    },
    personRow('a user’s card (extends.id)', (id) => ({ ...text(-1), type: 'contact', extends: { id } }), EVERYONE),
  ],
  forwardMessage: [
    {
      target: 'a group message',
      body: async (s) => ({ msg_id: (await groupMsg(s)).msg_id, user_ids: [-1] }),
      missing: () => [{ msg_id: NO_ID, user_ids: [-1] }],
      gone: MNF,
      expect: [OK, OK, OK, MNF, MNF, MNF, MNF, MNF],
    },
    {
      target: 'a private message',
      body: async (s) => ({ msg_id: (await toBob(s)).msg_id, user_ids: [-1] }),
      missing: () => [{ msg_id: NO_ID, user_ids: [-1] }],
      gone: MNF,
      expect: [OK, MNF, MNF, MNF, MNF, OK, MNF, MNF],
    },
    {
      target: 'a private message to an ex-friend',
      body: async (s) => ({ msg_id: (await toGus(s)).msg_id, user_ids: [-1] }),
      missing: () => [{ msg_id: NO_ID, user_ids: [-1] }],
      gone: MNF,
      expect: [OK, MNF, MNF, MNF, MNF, MNF, OK, MNF],
    },
    groupRow(
      'a group to forward to (user_ids)',
      async (gid, s, who) => ({ msg_id: await s.note(who), user_ids: [gid] }),
      MEMBERS,
    ),
  ],
  forwardMessages: (['each', 'merge'] as const).flatMap((mode): Row[] => [
    {
      target: `a group message (msg_ids, ${mode})`,
      body: async (s) => ({ msg_ids: [(await groupMsg(s)).msg_id], user_ids: [-1], mode }),
      missing: () => [{ msg_ids: [NO_ID], user_ids: [-1], mode }],
      gone: MNF,
      expect: [OK, OK, OK, MNF, MNF, MNF, MNF, MNF],
    },
    {
      target: `a private message among one's own (msg_ids, ${mode})`,
      body: async (s, who) => ({ msg_ids: [await s.note(who), (await toBob(s)).msg_id], user_ids: [-1], mode }),
      missing: async (s) => [{ msg_ids: [await s.note('stranger'), NO_ID], user_ids: [-1], mode }],
      gone: MNF,
      expect: [OK, MNF, MNF, MNF, MNF, OK, MNF, MNF],
    },
    {
      target: `a private message to an ex-friend (msg_ids, ${mode})`,
      body: async (s) => ({ msg_ids: [(await toGus(s)).msg_id], user_ids: [-1], mode }),
      missing: () => [{ msg_ids: [NO_ID], user_ids: [-1], mode }],
      gone: MNF,
      expect: [OK, MNF, MNF, MNF, MNF, MNF, OK, MNF],
    },
    groupRow(
      `a group to forward to (user_ids, ${mode})`,
      async (gid, s, who) => ({ msg_ids: [await s.note(who)], user_ids: [gid], mode }),
      MEMBERS,
    ),
  ]),
  forwardRecord: [
    {
      target: 'a merged record in a group (msg_id)',
      body: async (s) => ({ msg_id: (await s.records()).inGroup }),
      missing: () => [{ msg_id: NO_ID }],
      gone: MNF,
      expect: [OK, OK, OK, MNF, MNF, MNF, MNF, MNF],
    },
    {
      target: 'a merged record sent to a friend (msg_id)',
      body: async (s) => ({ msg_id: (await s.records()).toBob }),
      missing: () => [{ msg_id: NO_ID }],
      gone: MNF,
      expect: [OK, MNF, MNF, MNF, MNF, OK, MNF, MNF],
    },
    {
      target: 'a record held in a group’s record (record_id)',
      body: async (s) => {
        const { inGroup, nested } = await s.records();
        return { msg_id: inGroup, record_id: nested };
      },
      missing: async (s) => [{ msg_id: (await s.records()).inGroup, record_id: NO_ID }],
      gone: MNF,
      expect: [OK, OK, OK, MNF, MNF, MNF, MNF, MNF],
    },
    {
      target: 'a record held in a group’s record, through another record (record_id)',
      body: async (s) => {
        const { toBob, nested } = await s.records();
        return { msg_id: toBob, record_id: nested };
      },
      missing: async (s) => [{ msg_id: (await s.records()).toBob, record_id: NO_ID }],
      gone: MNF,
      expect: [MNF, MNF, MNF, MNF, MNF, MNF, MNF, MNF],
    },
  ],
  setMsgIsRead: [
    groupRow('a group', (gid) => ({ toContactId: gid, is_group: 1 }), MEMBERS),
    personRow('a user', (id) => ({ toContactId: id }), EVERYONE),
  ],
  readAtMsg: [
    groupRow('a group', (gid) => ({ toContactId: gid }), MEMBERS),
    personRow('a user', (id) => ({ toContactId: id }), EVERYONE),
  ],
  undoMessage: [
    ...messageRows('the owner’s group message', groupMsg, [OK, NY, NY, MNF, MNF, MNF, MNF, MNF], { changes: true }),
    ...messageRows('a member’s group message', memberMsg, [OK, OK, OK, MNF, MNF, MNF, MNF, MNF], {
      changes: true,
    }),
    ...messageRows('a private message', toBob, [OK, MNF, MNF, MNF, MNF, NY, MNF, MNF], { changes: true }),
    ...messageRows('a private message to an ex-friend', toGus, [OK, MNF, MNF, MNF, MNF, MNF, NY, MNF], {
      changes: true,
    }),
  ],
  delMessage: [
    ...messageRows('the owner’s group message', groupMsg, [OK, NY, NY, MNF, MNF, MNF, MNF, MNF], { changes: true }),
    ...messageRows('a private message', toBob, [OK, MNF, MNF, MNF, MNF, NY, MNF, MNF], { changes: true }),
    ...messageRows('a private message to an ex-friend', toGus, [OK, MNF, MNF, MNF, MNF, MNF, NY, MNF], {
      changes: true,
    }),
  ],
  removeMessage: [
    ...messageRows('a group message', groupMsg, [OK, OK, OK, MNF, MNF, MNF, MNF, MNF]),
    ...messageRows('a private message', toBob, [OK, MNF, MNF, MNF, MNF, OK, MNF, MNF]),
    ...messageRows('a private message to an ex-friend', toGus, [OK, MNF, MNF, MNF, MNF, MNF, OK, MNF]),
  ],
  // Pins: in a group its owner and administrators (the owner's `pin` setting may let every member); in a private chat either side while they may write.
  pinMessage: [
    ...pinRows('a group message', groupMsg, [OK, OK, FB, MNF, MNF, MNF, MNF, MNF]),
    ...pinRows('a private message', toBob, [OK, MNF, MNF, MNF, MNF, OK, MNF, MNF]),
    ...pinRows('a private message to an ex-friend', toGus, [NFC, MNF, MNF, MNF, MNF, MNF, NFC, MNF]),
  ],
  // Reactions: whoever sees the message, while the chat may be written to (an ex-friend's is closed).
  reactMessage: [
    ...messageRowsWith('a group message', groupMsg, { emoji: '👍', on: 1 }, [OK, OK, OK, MNF, MNF, MNF, MNF, MNF]),
    ...messageRowsWith('a private message', toBob, { emoji: '👍', on: 1 }, [OK, MNF, MNF, MNF, MNF, OK, MNF, MNF]),
    ...messageRowsWith('a private message to an ex-friend', toGus, { emoji: '👍', on: 1 }, [
      NFC,
      MNF,
      MNF,
      MNF,
      MNF,
      MNF,
      NFC,
      MNF,
    ]),
  ],
  messageReactions: [
    ...messageRows('a group message', groupMsg, [OK, OK, OK, MNF, MNF, MNF, MNF, MNF]),
    ...messageRows('a private message', toBob, [OK, MNF, MNF, MNF, MNF, OK, MNF, MNF]),
    ...messageRows('a private message to an ex-friend', toGus, [OK, MNF, MNF, MNF, MNF, MNF, OK, MNF]),
  ],
  // Group read receipts: a member asks; only the sender's own messages are counted (others' left out, as missing ones).
  groupReadCounts: [
    groupRow('group G', async (gid, s) => ({ toContactId: gid, ids: [(await groupMsg(s)).msg_id] }), MEMBERS, {
      check: (data, who) => expect((data as unknown[]).length, `${who}'s counts`).toBe(who === 'owner' ? 1 : 0),
    }),
  ],
  // Who read a message: its sender alone; to anyone else it is as missing as to a stranger.
  groupReadList: [
    ...messageRows('the owner’s group message', groupMsg, [OK, MNF, MNF, MNF, MNF, MNF, MNF, MNF]),
    ...messageRows('a member’s group message', memberMsg, [MNF, MNF, OK, MNF, MNF, MNF, MNF, MNF]),
    ...messageRows('a private message', toBob, [MNF, MNF, MNF, MNF, MNF, MNF, MNF, MNF]),
  ],
  // Edits: the sender alone, while the chat may be written to; earlier versions also to a group's owner and admins.
  editMessage: [
    ...messageRowsWith('the owner’s group message', groupMsg, { content: 'edited' }, [
      OK,
      NY,
      NY,
      MNF,
      MNF,
      MNF,
      MNF,
      MNF,
    ]),
    ...messageRowsWith('a member’s group message', memberMsg, { content: 'edited' }, [
      NY,
      NY,
      OK,
      MNF,
      MNF,
      MNF,
      MNF,
      MNF,
    ]),
    ...messageRowsWith('a private message', toBob, { content: 'edited' }, [OK, MNF, MNF, MNF, MNF, NY, MNF, MNF]),
    ...messageRowsWith('a private message to an ex-friend', toGus, { content: 'edited' }, [
      NFC,
      MNF,
      MNF,
      MNF,
      MNF,
      MNF,
      NY,
      MNF,
    ]),
  ],
  messageEdits: [
    ...messageRows('the owner’s group message', groupMsg, [OK, OK, MNF, MNF, MNF, MNF, MNF, MNF]),
    ...messageRows('a member’s group message', memberMsg, [OK, OK, OK, MNF, MNF, MNF, MNF, MNF]),
    ...messageRows('a private message', toBob, [OK, MNF, MNF, MNF, MNF, MNF, MNF, MNF]),
    ...messageRows('a private message to an ex-friend', toGus, [OK, MNF, MNF, MNF, MNF, MNF, MNF, MNF]),
  ],
  pinList: [
    groupRow('a group', (gid) => ({ toContactId: gid, is_group: 1 }), MEMBERS),
    personRow('a user', (id) => ({ toContactId: id }), EVERYONE),
  ],
  // Sign-up chains (接龙): a member of the group starts one, adds, changes and takes back a line and reads it;
  // its starter and the group's owner and admins close it. To anyone else the chain is as missing as to a stranger.
  chainStart: [groupRow('group G', (gid) => ({ id: randomUUID(), toContactId: gid, title: 'sign up' }), MEMBERS)],
  chainJoin: messageRowsWith('a chain in G', chainMsg, { text: 'me' }, [OK, OK, OK, MNF, MNF, MNF, MNF, MNF]),
  chainWithdraw: messageRows('a chain in G', chainMsg, [OK, OK, OK, MNF, MNF, MNF, MNF, MNF]),
  chainInfo: messageRows('a chain in G', chainMsg, [OK, OK, OK, MNF, MNF, MNF, MNF, MNF]),
  chainClose: messageRows('alice’s chain in G', chainMsg, [OK, OK, FB, MNF, MNF, MNF, MNF, MNF], { changes: true }),
  // Polls (投票): a member who may speak starts one and votes; its starter and the group's owner and admins close
  // it (another member who sees it is refused Forbidden); who voted is told of a named poll only, to members.
  createPoll: [
    groupRow('group G', (gid) => ({ id: randomUUID(), toContactId: gid, question: 'q', options: ['a', 'b'] }), MEMBERS),
  ],
  votePoll: messageRowsWith('a poll in G', pollMsg, { options: [0] }, [OK, OK, OK, MNF, MNF, MNF, MNF, MNF]),
  closePoll: messageRows('alice’s poll in G', pollMsg, [OK, OK, FB, MNF, MNF, MNF, MNF, MNF], { changes: true }),
  pollVoters: [
    ...messageRows('a named poll in G', pollMsg, [OK, OK, OK, MNF, MNF, MNF, MNF, MNF]),
    ...messageRows('an anonymous poll in G', anonPollMsg, [
      'PollAnonymous',
      'PollAnonymous',
      'PollAnonymous',
      MNF,
      MNF,
      MNF,
      MNF,
      MNF,
    ]),
  ],
  // Whom a pat names is pat.test.ts's; here, the chat it is posted in.
  patUser: [
    groupRow('a group', (gid, s) => ({ toContactId: gid, is_group: 1, user_id: s.person('owner').id }), MEMBERS),
    {
      ...personRow('a user', (id) => ({ toContactId: id, user_id: id }), [
        'NotAllowedTarget',
        NFC,
        NFC,
        NFC,
        NFC,
        OK,
        NFC,
        NFC,
      ]),
      blocked: NFC,
    },
  ],
  delChat: [
    groupRow('a group', (gid) => ({ id: gid, is_group: 1 }), MEMBERS),
    personRow('a user', (id) => ({ id }), EVERYONE),
  ],
  setChatTop: [
    groupRow('a group', (gid) => ({ id: gid, is_group: 1, is_top: 1 }), MEMBERS),
    personRow('a user', (id) => ({ id, is_top: 1 }), EVERYONE),
  ],
  isNotice: [
    groupRow('a group', (gid) => ({ id: gid, is_group: 1, is_notice: 0 }), MEMBERS),
    personRow('a user', (id) => ({ id, is_notice: 0 }), EVERYONE),
  ],

  groupAdd: [
    {
      target: 'users to add (user_ids)',
      body: async (s) => ({ user_ids: [s.people.bob.id, (await s.invitee()).id] }),
      missing: (s) => [{ user_ids: [NO_USER, s.people.bob.id] }],
      hidden: (s) => ({ user_ids: [s.people.dora.id, s.people.bob.id] }),
      gone: UNF,
      expect: [OK, NFC, NFC, NFC, NFC, NFC, NFC, NFC],
    },
  ],
  groupInfo: [groupRow('a group', (gid) => ({ group_id: gid }), MEMBERS)],
  groupUserList: [groupRow('a group', (gid) => ({ group_id: gid }), MEMBERS)],
  getAllUser: [groupRow('a group', (gid) => ({ group_id: gid }), MEMBERS)],
  addGroupUser: [
    groupRow('a group', async (gid, s) => ({ id: gid, user_ids: [(await s.invitee()).id] }), MEMBERS, {
      changes: true,
    }),
  ],
  removeUser: [groupRow('a group', (gid, s) => ({ id: gid, user_id: s.people.tom.id }), ADMINS, { changes: true })],
  setManager: [
    groupRow('a group', (gid, s) => ({ id: gid, user_id: s.people.tom.id, role: 2 }), OWNER, { changes: true }),
  ],
  changeOwner: [groupRow('a group', (gid, s) => ({ id: gid, user_id: s.people.tom.id }), OWNER, { changes: true })],
  setNoSpeak: [groupRow('a group', (gid, s) => ({ id: gid, user_id: s.people.tom.id, noSpeakTimer: 1 }), ADMINS)],
  groupSetting: [
    groupRow('a group', (gid) => ({ id: gid, setting: { invite: 1 } }), ADMINS),
    groupRow('a group: whether every member may pin', (gid) => ({ id: gid, setting: { pin: 1 } }), OWNER, {
      changes: true,
    }),
  ],
  editGroupName: [groupRow('a group', (gid) => ({ id: gid, displayName: 'Renamed' }), ADMINS)],
  setNotice: [groupRow('a group', (gid) => ({ id: gid, notice: '<p>hello</p>' }), ADMINS)],
  removeGroup: [groupRow('a group', (gid) => ({ id: gid }), OWNER, { changes: true })],
  clearMessage: [groupRow('a group', (gid) => ({ id: gid }), OWNER, { changes: true })],
  updateCard: [groupRow('a group', (gid) => ({ group_id: gid, nickname: 'card' }), MEMBERS)],
  uploadGroupAvatar: [groupRow('a group', (gid) => ({ group_id: gid }), ADMINS)],
  // Every member sees a group's robots; only its owner and administrators their webhooks.
  groupRobotList: [
    groupRow('a group', (gid) => ({ group_id: gid }), MEMBERS, {
      check: (data, who) => {
        const robots = data as Array<{ url?: string }>;
        for (const r of robots) expect('url' in r, `${who} sees a webhook`).toBe(who === 'owner' || who === 'admin');
      },
    }),
  ],
  groupRobotAdd: [groupRow('a group', (gid) => ({ group_id: gid, name: 'CI' }), ADMINS, { changes: true })],
  // A robot of a group I do not manage reads as one that does not exist, but to its members.
  groupRobotEdit: [robotRow((id) => ({ robot_id: id, name: 'Renamed' }))],
  groupRobotReset: [robotRow((id) => ({ robot_id: id }), { changes: true })],
  groupRobotRemove: [robotRow((id) => ({ robot_id: id }), { changes: true })],
  uploadRobotAvatar: [robotRow((id) => ({ robot_id: id }))],
  // A genuine QR token is itself the permission: anyone signed in who holds one may look and join.
  // Without a genuine token, a group that exists and one that does not read alike.
  groupInfoqq: [
    {
      target: 'a group’s QR token',
      body: async (s) => ({ token: await s.qrToken() }),
      missing: () => [{ token: forgedToken(NO_GROUP) }],
      hidden: async (s) => ({ token: forgedToken((await s.group()).gid) }),
      gone: 'QrInvalid',
      expect: EVERYONE,
    },
  ],
  joinGroup: [
    {
      target: 'a group’s QR token',
      body: async (s) => ({ group_id: (await s.group()).gid, token: await s.qrToken() }),
      missing: () => [{ group_id: NO_GROUP, token: forgedToken(NO_GROUP) }],
      hidden: async (s) => {
        const { gid } = await s.group();
        return { group_id: gid, token: forgedToken(gid) };
      },
      gone: 'QrInvalid',
      expect: ['AlreadyMember', 'AlreadyMember', 'AlreadyMember', OK, OK, OK, OK, OK],
    },
    // Without a token only a scan of the group's code on a Raingad client admits (raingad-compat):
    // no one here scanned one, so the id alone admits no one and says nothing of the group.
    {
      target: 'a group by its id alone (no token, no scan)',
      body: async (s) => ({ group_id: (await s.group()).gid }),
      missing: () => [{ group_id: NO_GROUP }],
      gone: 'QrInvalid',
      expect: ['QrInvalid', 'QrInvalid', 'QrInvalid', 'QrInvalid', 'QrInvalid', 'QrInvalid', 'QrInvalid', 'QrInvalid'],
    },
  ],
  // A Raingad client resolving a scanned code: the genuine token is the permission, as for groupInfoqq.
  scanGroup: [
    {
      target: 'a group’s QR token (realToken)',
      body: async (s) => ({ realToken: await s.qrToken() }),
      missing: () => [{ realToken: forgedToken(NO_GROUP) }],
      hidden: async (s) => ({ realToken: forgedToken((await s.group()).gid) }),
      gone: 'QrInvalid',
      expect: EVERYONE,
    },
  ],
  resetGroupQr: [groupRow('a group', (gid) => ({ group_id: gid }), ADMINS, { changes: true })],
  uploadFile: [
    groupRow(
      'a group to send the file to (message.toContactId)',
      (gid) => ({ message: JSON.stringify({ ...text(gid), type: 'image', content: '' }) }),
      MEMBERS,
    ),
  ],

  emojiAdd: [
    {
      target: 'someone else’s file (file_id)',
      body: async (s) => ({ file_id: await s.file() }),
      missing: () => [{ file_id: NO_ID }],
      gone: NF,
      // Members saw the file as an image in G, so they may collect it; Erin and Fay no longer see G.
      expect: [OK, OK, OK, NF, NF, NF, NF, NF],
    },
  ],
  // Ids not in my collection are skipped, so someone else's sticker is answered like a missing one: 0.
  emojiDel: [
    {
      target: 'someone else’s sticker',
      body: async (s) => ({ ids: [(await s.stickers())[0]] }),
      missing: () => [{ ids: [NO_ID] }],
      gone: OK,
      expect: EVERYONE,
      changes: ['owner'],
      intact: async (s) => expect(await s.stickerList()).toEqual([...(await s.stickers())].reverse()),
    },
  ],
  emojiMove: [
    {
      target: 'someone else’s sticker',
      body: async (s) => ({ ids: [(await s.stickers())[0]] }),
      missing: () => [{ ids: [NO_ID] }],
      gone: OK,
      expect: EVERYONE,
      changes: ['owner'],
      intact: async (s) => expect(await s.stickerList()).toEqual([...(await s.stickers())].reverse()),
    },
  ],

  friendAdd: [
    {
      ...personRow('a user (user_id)', (id) => ({ user_id: id }), [
        'FriendSelf',
        OK,
        OK,
        OK,
        OK,
        'AlreadyFriends',
        OK,
        OK,
      ]),
      // Blocking keeps the friendship, as WeChat does (a stranger she blocked is answered as if asked: block.test.ts).
      blocked: 'AlreadyFriends',
    },
    {
      ...personRow('a member of a group with `profile` off (user_id)', (id) => ({ user_id: id }), EVERYONE),
      body: async (s) => ({ user_id: await s.hiddenMember() }),
      expect: [OK, OK, 'ProfileHidden', OK, OK, OK, OK, OK],
    },
    {
      target: 'a person’s scanned QR code (token)',
      body: async (s) => ({ user_id: s.person('owner').id, token: await s.userQrToken() }),
      missing: () => [{ user_id: NO_USER, token: forgedToken(NO_USER) }],
      hidden: (s) => ({ user_id: s.person('owner').id, token: forgedToken(s.person('owner').id) }),
      gone: 'QrInvalid',
      expect: ['FriendSelf', OK, OK, OK, OK, 'AlreadyFriends', OK, OK],
    },
  ],
  // As with a group's code: a genuine token of a person is the permission to see their card.
  userInfoqq: [
    {
      target: 'a person’s QR token',
      body: async (s) => ({ token: await s.userQrToken() }),
      missing: () => [{ token: forgedToken(NO_USER) }],
      hidden: (s) => ({ token: forgedToken(s.person('owner').id) }),
      gone: 'QrInvalid',
      expect: EVERYONE,
    },
  ],
  scanUser: [
    {
      target: 'a person’s QR token (realToken)',
      body: async (s) => ({ realToken: await s.userQrToken() }),
      missing: () => [{ realToken: forgedToken(NO_USER) }],
      hidden: (s) => ({ realToken: forgedToken(s.person('owner').id) }),
      gone: 'QrInvalid',
      expect: EVERYONE,
    },
  ],
  friendUpdate: [
    {
      target: 'a friend request to someone else (friend_id)',
      body: async (s) => ({ friend_id: await s.request(), status: 1 }),
      missing: () => [{ friend_id: NO_ID, status: 1 }],
      gone: NF,
      // Gus asked alice again after she deleted him: only she may answer.
      expect: [OK, NF, NF, NF, NF, NF, NF, NF],
      changes: true,
    },
  ],
  friendDel: [
    {
      target: 'a friendship (id)',
      // Alice names Bob; everyone else names alice. Only the two friends can end it.
      body: (s, who) => ({ id: who === 'owner' ? s.people.bob.id : s.person('owner').id }),
      missing: () => [{ id: NO_USER }],
      hidden: (s) => ({ id: s.people.dora.id }),
      gone: NFR,
      expect: [OK, NFR, NFR, NFR, NFR, OK, NFR, NFR],
      changes: true,
    },
  ],
  friendSetNickname: [
    {
      target: 'someone else’s friendship row (friend_id)',
      body: async (s) => ({ friend_id: await s.friendRow(), nickname: 'nick' }),
      missing: () => [{ friend_id: NO_ID, nickname: 'nick' }],
      gone: NF,
      expect: [OK, NF, NF, NF, NF, NF, NF, NF],
    },
  ],
  momentsPublish: [
    {
      target: 'someone else’s image (file_ids)',
      body: async (s) => ({ id: randomUUID(), file_ids: [await s.file()] }),
      missing: () => [{ id: randomUUID(), file_ids: [NO_ID] }],
      gone: NF,
      expect: [OK, NF, NF, NF, NF, NF, NF, NF],
    },
  ],
  momentsSetCover: [
    {
      target: 'someone else’s image (file_id)',
      body: async (s) => ({ file_id: await s.file() }),
      missing: () => [{ file_id: NO_ID }],
      gone: NF,
      expect: [OK, NF, NF, NF, NF, NF, NF, NF],
    },
  ],
  momentsDel: [
    {
      target: 'someone else’s post',
      body: async (s) => ({ id: await s.post() }),
      missing: () => [{ id: NO_ID }],
      gone: MOM,
      expect: [OK, MOM, MOM, MOM, MOM, MOM, MOM, MOM],
      changes: ['owner'],
    },
  ],
  ...Object.fromEntries(
    (['momentsLike', 'momentsUnlike'] as const).map((name) => [
      name,
      [
        {
          target: 'a post of alice’s friends may see',
          body: async (s: Scene) => ({ id: await s.post() }),
          missing: () => [{ id: NO_ID }],
          gone: MOM,
          expect: FRIENDS,
          blocked: MOM,
        },
      ],
    ]),
  ),
  momentsComment: [
    {
      target: 'a post of alice’s friends may see',
      body: async (s) => ({ id: await s.post(), content: 'nice' }),
      missing: () => [{ id: NO_ID, content: 'nice' }],
      gone: MOM,
      expect: FRIENDS,
      blocked: MOM,
    },
    {
      target: 'a comment of Bob’s (reply_to)',
      body: async (s) => ({ id: await s.post(), content: 'yes', reply_to: await s.comment() }),
      missing: async (s) => [{ id: await s.post(), content: 'yes', reply_to: NO_ID }],
      // Asked by the stranger, who is refused on the post before the comment is looked at (a friend
      // of the author replying to a comment they may not see: moments.test.ts).
      gone: MOM,
      expect: [OK, MOM, MOM, MOM, MOM, OK, MOM, MOM],
    },
  ],
  // Anyone may block anyone active but themselves, once or again (block.test.ts); Hal may block alice back.
  blockAdd: [
    {
      ...personRow('a user to block (user_id)', (id) => ({ user_id: id }), ['BlockSelf', OK, OK, OK, OK, OK, OK, OK]),
      blocked: OK,
    },
  ],
  favoriteAdd: [
    ...(
      [
        ['a group message', groupMsg, [OK, OK, OK, MNF, MNF, MNF, MNF, MNF]],
        ['a private message', toBob, [OK, MNF, MNF, MNF, MNF, OK, MNF, MNF]],
        ['a private message to an ex-friend', toGus, [OK, MNF, MNF, MNF, MNF, MNF, OK, MNF]],
      ] as const
    ).map(([target, pick, expect]): Row => ({
      target: `${target} (msg_ids)`,
      body: async (s) => ({ msg_ids: [(await pick(s)).msg_id] }),
      missing: () => [{ msg_ids: [NO_ID] }],
      gone: MNF,
      expect,
    })),
    {
      target: 'a post of alice’s friends may see (post_id)',
      body: async (s) => ({ post_id: await s.post() }),
      missing: () => [{ post_id: NO_ID }],
      gone: MOM,
      expect: FRIENDS,
    },
  ],
  // A report of something the caller cannot see reads as a missing one; of one's own thing, ReportSelf.
  report: [
    ...(
      [
        ['a group message', groupMsg, [RS, OK, OK, MNF, MNF, MNF, MNF, MNF]],
        ['a private message', toBob, [RS, MNF, MNF, MNF, MNF, OK, MNF, MNF]],
      ] as const
    ).map(([target, pick, expect]): Row => ({
      target: `${target} (id)`,
      body: async (s) => ({ kind: 'message', id: (await pick(s)).msg_id, reason: 'spam' }),
      missing: () => [{ kind: 'message', id: NO_ID, reason: 'spam' }],
      gone: MNF,
      expect,
      blocked: MNF,
    })),
    // Hal may still report the one who blocked him: a refusal would tell him of the block.
    {
      ...personRow('a user (id)', (id) => ({ kind: 'user', id, reason: 'harassment' }), [
        RS,
        OK,
        OK,
        OK,
        OK,
        OK,
        OK,
        OK,
      ]),
      blocked: OK,
    },
    groupRow('a group (id)', (gid) => ({ kind: 'group', id: gid, reason: 'fraud' }), [RS, OK, OK, NM, NM, NM, NM, NM], {
      blocked: NM,
    }),
    {
      target: 'a post of alice’s friends may see (id)',
      body: async (s) => ({ kind: 'moment', id: await s.post(), reason: 'rumor' }),
      missing: () => [{ kind: 'moment', id: NO_ID, reason: 'rumor' }],
      gone: MOM,
      expect: [RS, MOM, MOM, MOM, MOM, OK, MOM, MOM],
      blocked: MOM,
    },
  ],
  // Only the owner reads an export of their data; anyone else's is answered as one that does not exist.
  exportStatus: [
    {
      target: 'alice’s export of her data (id)',
      body: async (s) => ({ id: await s.dataExport() }),
      missing: () => [{ id: NO_ID }],
      gone: NF,
      expect: [OK, NF, NF, NF, NF, NF, NF, NF],
      blocked: NF,
    },
  ],
  // Ids not among my favourites are skipped, so someone else's favourite is answered like a missing one: 0.
  // A session is its user's alone: anyone else's call answers as for one that does not exist.
  sessionEnd: [
    {
      target: 'alice’s other session',
      body: async (s) => ({ session_id: await s.session() }),
      missing: () => [{ session_id: NO_ID }],
      gone: NF,
      expect: [OK, NF, NF, NF, NF, NF, NF, NF],
      blocked: NF,
      changes: ['owner'],
    },
  ],
  // A passkey is its owner's alone: anyone else's call answers as for one that does not exist.
  passkeyRename: [
    {
      target: 'alice’s passkey',
      body: async (s) => ({ id: await s.passkey(), name: 'mine now' }),
      missing: () => [{ id: NO_ID, name: 'mine now' }],
      gone: NF,
      expect: [OK, NF, NF, NF, NF, NF, NF, NF],
      blocked: NF,
    },
  ],
  passkeyRemove: [
    {
      target: 'alice’s passkey',
      body: async (s) => ({ id: await s.passkey(), password: await s.alicePassword() }),
      missing: () => [{ id: NO_ID, password: 'secret123' }],
      gone: NF,
      expect: [OK, NF, NF, NF, NF, NF, NF, NF],
      blocked: NF,
      changes: ['owner'],
    },
  ],
  // A personal access token is its owner's alone: anyone else's revoke answers as for one that does not exist.
  tokenRevoke: [
    {
      target: 'alice’s personal access token',
      body: async (s) => ({ id: await s.accessToken() }),
      missing: () => [{ id: NO_ID }],
      gone: NF,
      expect: [OK, NF, NF, NF, NF, NF, NF, NF],
      blocked: NF,
      changes: ['owner'],
    },
  ],
  // A bot is its owner's alone to manage: anyone else is answered as for one that does not exist.
  botEdit: [botRow((id) => ({ bot_id: id, name: 'Renamed', webhook_url: '' }))],
  botReset: [botRow((id) => ({ bot_id: id }), { changes: ['owner'] })],
  botDeliveries: [botRow((id) => ({ bot_id: id }))],
  botDelete: [botRow((id) => ({ bot_id: id }), { changes: ['owner'] })],
  favoriteDel: [
    {
      target: 'someone else’s favourite',
      body: async (s) => ({ ids: [await s.favorite()] }),
      missing: () => [{ ids: [NO_ID] }],
      gone: OK,
      expect: EVERYONE,
      changes: ['owner'],
      intact: async (s) => expect(await s.favoriteList()).toEqual([await s.favorite()]),
    },
  ],
  favoriteSend: [
    {
      target: 'someone else’s favourite (id)',
      body: async (s) => ({ id: await s.favorite(), user_ids: [-1] }),
      missing: () => [{ id: NO_ID, user_ids: [-1] }],
      gone: FNF,
      expect: [OK, FNF, FNF, FNF, FNF, FNF, FNF, FNF],
    },
    groupRow(
      'a group to send to (user_ids)',
      async (gid, s, who) => ({ id: await s.ownFavorite(who), user_ids: [gid] }),
      MEMBERS,
    ),
  ],
  momentsDelComment: [
    {
      target: 'Bob’s comment on alice’s post',
      body: async (s) => ({ id: await s.comment() }),
      missing: () => [{ id: NO_ID }],
      gone: MCN,
      expect: [OK, MCN, MCN, MCN, MCN, OK, MCN, MCN],
      changes: true,
    },
    {
      target: 'the caller’s own comment on alice’s post',
      body: async (s, who) => ({ id: await s.ownComment(who) }),
      missing: () => [{ id: NO_ID }],
      gone: MCN,
      // Alice and Bob see the post; everyone else left their comment when they could see it (Gus
      // as her friend) and may not any more, so it reads as missing.
      expect: [OK, MCN, MCN, MCN, MCN, OK, MCN, MCN],
      changes: true,
    },
  ],
};

it('walks the route table: each route takes no foreign id (and says why) or has permission rows', () => {
  const names = Object.keys(routes) as RouteName[];
  expect(names.filter((n) => !NO_FOREIGN_ID[n] && !MATRIX[n]?.length)).toEqual([]);
  expect(names.filter((n) => NO_FOREIGN_ID[n] && MATRIX[n])).toEqual([]);
  expect([...Object.keys(NO_FOREIGN_ID), ...Object.keys(MATRIX)].filter((n) => !(n in routes))).toEqual([]);
  // The rows expect -1 signed out; a public route taking an id would need rows of another kind.
  expect(names.filter((n) => routes[n].public && MATRIX[n])).toEqual([]);
});

it('answers a stranger as it answers a missing id, unless the row names an existing id to hide', () => {
  const rows = Object.entries(MATRIX).flatMap(([name, list]) => list.map((row) => ({ name, row })));
  const stranger = ACTORS.indexOf('stranger');
  expect(
    rows.filter(({ row }) => row.expect[stranger] !== row.gone && !row.hidden && !row.gap).map((r) => r.name),
  ).toEqual([]);
});

const EN = negotiateLocale('en');

/** The answer as code and msg, for comparing two answers exactly. */
const face = (res: { code: number; msg: string }) => ({ code: res.code, msg: res.msg });

function expectAnswer(res: { code: number; msg: string }, want: Answer, what: string): void {
  if (want === OK) expect(res.code, `${what}: ${res.msg}`).toBe(0);
  else expect(face(res), what).toEqual({ code: ErrorCodes[want], msg: translate(EN, `errors.${want}`) });
}

let server: TestServer;
let scenes = 0;

/** A tiny PNG, different for each scene and `n`, so that no two scenes share a file. */
const png = (k: number, n: number) =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: { r: k % 256, g: (k >> 8) % 256, b: n } } })
    .png()
    .toBuffer();

/**
 * A fresh cast with alice's things: users and their sessions straight in the database (signUp's
 * password hashing would dominate the suite), relations through the API where they are the
 * point (Gus's message and his removal as a friend, Erin's removal, Fay's leaving). The parts
 * only some rows need are made when first asked for.
 */
class Scene {
  private readonly made = new Map<string, Promise<unknown>>();
  private readonly sockets: TestSocket[] = [];
  toBob!: MessageRef;
  toGus!: MessageRef;

  private constructor(
    readonly k: number,
    readonly people: Record<Name, Person>,
  ) {}

  static async create(): Promise<Scene> {
    const k = ++scenes;
    const { db, sessions } = server.ctx;
    const rows = await db
      .insertInto('users')
      .values(PEOPLE.map((p) => userRow(`${p}${k}p`, p === 'dora' ? 0 : 1)))
      .returning(['id', 'account'])
      .execute();
    const cast = await Promise.all(
      PEOPLE.map(async (p) => {
        const id = rows.find((r) => r.account === `${p}${k}p`)!.id;
        if (p === 'dora') return [p, { id, token: undefined }] as const;
        const session = await sessions.create(id, { cid: '', isMobile: false, userAgent: 't', ip: '::1' });
        return [p, { id, token: `bearer ${session.token}` }] as const;
      }),
    );
    const people = Object.fromEntries(cast) as Record<Name, Person>;
    const { alice, bob, gus } = people;
    const friends = new FriendRepo(db);
    await Promise.all([bob, gus, people.hal].map((u) => friends.befriend(alice.id, u.id, server.ctx.now())));
    const s = new Scene(k, people);
    [s.toBob, s.toGus] = await Promise.all([
      s.say('alice', text(bob.id, 'to bob')),
      s.say('alice', text(gus.id, 'to gus')),
    ]);
    await s.ok('friendDel', { id: gus.id }, 'alice');
    await s.ok('blockAdd', { user_id: people.hal.id }, 'alice');
    return s;
  }

  /** Who plays `who`; signed out, Sam without his token. */
  person(who: Caller): Person {
    return this.people[CAST[who === 'signedOut' ? 'stranger' : who]];
  }

  async ok(name: RouteName, body: Body, as: Name): Promise<unknown> {
    const res = await server.call(name, body, { token: this.people[as].token });
    expect(res.code, `setup ${name} as ${as}: ${res.msg}`).toBe(0);
    return res.data;
  }

  private async say(as: Name, body: Body): Promise<MessageRef> {
    const data = (await this.ok('sendMessage', body, as)) as MessageRef;
    return { msg_id: data.msg_id, id: data.id };
  }

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let p = this.made.get(key) as Promise<T> | undefined;
    if (!p) this.made.set(key, (p = make()));
    return p;
  }

  /** A file alice uploaded, an image she sent to G (so that its members have seen it). */
  async file(): Promise<number> {
    await this.group();
    return this.uploaded();
  }

  private uploaded(): Promise<number> {
    return this.once('file', async () => {
      const stored = await new FileService(server.ctx).store(
        await server.ctx.storage.stage(Readable.from([await png(this.k, 1)])),
        'png',
        'a.png',
        this.people.alice.id,
      );
      return stored.file.id;
    });
  }

  /**
   * Group G: alice owner, Dan admin, Carl and Tom members; alice's message, Carl's message and
   * alice's image in it; then Erin removed and Fay gone. Its avatar is marked as uploaded, so that
   * joins and leaves do not redraw it (that costs more than everything else here).
   */
  group(): Promise<{ gid: string; msg: MessageRef; memberMsg: MessageRef }> {
    return this.once('group', async () => {
      const { alice, dan, carl, tom, erin, fay } = this.people;
      const gid = await this.makeGroup(`G${this.k}`, [
        [alice.id, GroupRoles.Owner],
        [dan.id, GroupRoles.Admin],
        [carl.id, GroupRoles.Member],
        [tom.id, GroupRoles.Member],
        [erin.id, GroupRoles.Member],
        [fay.id, GroupRoles.Member],
      ]);
      const msg = await this.say('alice', text(gid, 'from the owner'));
      const memberMsg = await this.say('carl', text(gid, 'from a member'));
      await this.say('alice', { ...text(gid), type: 'image', content: '', file_id: await this.uploaded() });
      await this.ok('removeUser', { id: gid, user_id: erin.id }, 'alice');
      await this.ok('removeUser', { id: gid, user_id: fay.id }, 'fay');
      return { gid, msg, memberMsg };
    });
  }

  private async makeGroup(name: string, members: Array<[number, number]>): Promise<string> {
    const { db } = server.ctx;
    const repo = new GroupRepo(db);
    const now = server.ctx.now();
    const group = await db.transaction().execute(async (trx) => {
      const g = await repo.create(trx, name, members[0]![0], JSON.stringify(DEFAULT_GROUP_SETTING), now);
      await repo.addMembers(
        trx,
        g.id,
        members.map(([userId, role]) => ({ userId, role })),
        now,
        0,
      );
      return g;
    });
    await db.updateTable('groups').set({ avatar_custom: 1 }).where('id', '=', group.id).execute();
    return `group-${group.id}`;
  }

  /** A sign-up chain alice started in G. */
  chain(): Promise<MessageRef> {
    return this.once('chain', async () => {
      const { gid } = await this.group();
      const body = { id: randomUUID(), toContactId: gid, title: 'sign up' };
      const data = (await this.ok('chainStart', body, 'alice')) as MessageRef;
      return { msg_id: data.msg_id, id: data.id };
    });
  }

  /** A poll alice started in G: named (0) or anonymous (1). */
  poll(anonymous: 0 | 1): Promise<MessageRef> {
    return this.once(`poll${anonymous}`, async () => {
      const { gid } = await this.group();
      const body = { id: randomUUID(), toContactId: gid, question: 'lunch?', options: ['a', 'b'], anonymous };
      const data = (await this.ok('createPoll', body, 'alice')) as MessageRef;
      return { msg_id: data.msg_id, id: data.id };
    });
  }

  /** Tom, after alice turned G's `profile` setting off: his id. */
  hiddenMember(): Promise<number> {
    return this.once('profileOff', async () => {
      await this.ok('groupSetting', { id: (await this.group()).gid, setting: { profile: 0 } }, 'alice');
      return this.people.tom.id;
    });
  }

  /** A group of alice's that she disbanded. */
  disbanded(): Promise<string> {
    return this.once('disbanded', async () => {
      const { alice, dan, carl } = this.people;
      const gid = await this.makeGroup(`D${this.k}`, [
        [alice.id, GroupRoles.Owner],
        [dan.id, GroupRoles.Member],
        [carl.id, GroupRoles.Member],
      ]);
      await this.ok('removeGroup', { id: gid }, 'alice');
      return gid;
    });
  }

  /** G's QR token, as alice's groupInfo hands it out. */
  qrToken(): Promise<string> {
    return this.once('qr', async () => {
      const info = (await this.ok('groupInfo', { group_id: (await this.group()).gid }, 'alice')) as { qrUrl: string };
      return parseQrLink(info.qrUrl)!.token;
    });
  }

  /** Alice's own QR token, as her checkuser hands it out. */
  userQrToken(): Promise<string> {
    return this.once('userQr', async () => {
      const me = (await this.ok('checkuser', {}, 'alice')) as { qrUrl: string };
      return parseQrLink(me.qrUrl)!.token;
    });
  }

  /** Alice's two stickers, oldest first. */
  stickers(): Promise<[number, number]> {
    return this.once('stickers', async () => {
      const second = await new FileService(server.ctx).store(
        await server.ctx.storage.stage(Readable.from([await png(this.k, 2)])),
        'png',
        'b.png',
        this.people.alice.id,
      );
      const a = (await this.ok('emojiAdd', { file_id: await this.file() }, 'alice')) as { id: number };
      const b = (await this.ok('emojiAdd', { file_id: second.file.id }, 'alice')) as { id: number };
      return [a.id, b.id];
    });
  }

  async stickerList(): Promise<number[]> {
    return ((await this.ok('emojiIndex', {}, 'alice')) as Array<{ id: number }>).map((e) => e.id);
  }

  /** A passkey of alice's, stored as registering one stores it. */
  /** A second session of alice's, besides the one she calls with. */
  session(): Promise<number> {
    return this.once('session', async () => {
      const made = await server.ctx.sessions.create(this.people.alice.id, {
        cid: '',
        isMobile: true,
        userAgent: 'phone',
        ip: '127.0.0.1',
      });
      return made.id;
    });
  }

  passkey(): Promise<number> {
    return this.once('passkey', async () => {
      const row = await server.ctx.db
        .insertInto('passkeys')
        .values({
          user_id: this.people.alice.id,
          credential_id: `perm${this.k}`,
          public_key: 'AA',
          name: 'alice’s key',
          create_time: server.ctx.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
  }

  /** A bot alice owns. */
  bot(): Promise<number> {
    return this.once('bot', async () => ((await this.ok('botCreate', { name: 'CI' }, 'alice')) as { id: number }).id);
  }

  /** A robot of G, which alice added. */
  robot(): Promise<number> {
    return this.once('robot', async () => {
      const { gid } = await this.group();
      return ((await this.ok('groupRobotAdd', { group_id: gid, name: 'CI' }, 'alice')) as { id: number }).id;
    });
  }

  /** A robot of a group since disbanded. */
  disbandedRobot(): Promise<number> {
    return this.once('disbandedRobot', async () => {
      const { alice, dan } = this.people;
      const gid = await this.makeGroup(`R${this.k}`, [
        [alice.id, GroupRoles.Owner],
        [dan.id, GroupRoles.Admin],
      ]);
      const { id } = (await this.ok('groupRobotAdd', { group_id: gid, name: 'CI' }, 'alice')) as { id: number };
      await this.ok('removeGroup', { id: gid }, 'alice');
      return id;
    });
  }

  accessToken(): Promise<number> {
    return this.once('accessToken', async () => {
      const row = await server.ctx.db
        .insertInto('access_tokens')
        .values({
          user_id: this.people.alice.id,
          name: 'alice’s token',
          token_hash: `perm${this.k}`.padEnd(64, '0'),
          hint: 'spt_perm',
          scopes: 'messages:read',
          create_time: server.ctx.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
  }

  /** A password of Alice's (the cast is made without one), for the calls that ask her to prove it is her. */
  alicePassword(): Promise<string> {
    return this.once('alicePassword', async () => {
      const password = 'secret123';
      await server.ctx.db
        .updateTable('users')
        .set({ password_hash: await hashPassword(password) })
        .where('id', '=', this.people.alice.id)
        .execute();
      return password;
    });
  }

  /** Alice's favourite of her message to Bob. */
  favorite(): Promise<number> {
    return this.once('favorite', async () => {
      const saved = (await this.ok('favoriteAdd', { msg_ids: [this.toBob.msg_id] }, 'alice')) as Array<{ id: number }>;
      return saved[0]!.id;
    });
  }

  /** Alice's export of her data. */
  dataExport(): Promise<number> {
    return this.once('dataExport', async () => ((await this.ok('exportRequest', {}, 'alice')) as { id: number }).id);
  }

  /** Alice's favourites, newest first. */
  async favoriteList(): Promise<number[]> {
    return ((await this.ok('favoriteList', {}, 'alice')) as Array<{ id: number }>).map((f) => f.id);
  }

  /** A favourite of `who`'s own: their note to themselves, saved. */
  ownFavorite(who: Caller): Promise<number> {
    return this.once(`favorite:${who}`, async () => {
      const as = CAST[who === 'signedOut' ? 'stranger' : who];
      const saved = (await this.ok('favoriteAdd', { msg_ids: [await this.note(who)] }, as)) as Array<{ id: number }>;
      return saved[0]!.id;
    });
  }

  /** A post of alice's for all her friends. */
  post(): Promise<number> {
    return this.once('post', async () => {
      const post = (await this.ok('momentsPublish', { id: randomUUID(), content: 'a post' }, 'alice')) as {
        id: number;
      };
      return post.id;
    });
  }

  /** Bob's comment on alice's post. */
  comment(): Promise<number> {
    return this.once('comment', async () => {
      const c = (await this.ok('momentsComment', { id: await this.post(), content: 'bob says' }, 'bob')) as {
        id: number;
      };
      return c.id;
    });
  }

  /**
   * A comment of `who`'s on alice's post: through the API for those who see it (alice, Bob), else
   * stored as left while they could (Gus was her friend; the rest stand for friends who were).
   */
  ownComment(who: Caller): Promise<number> {
    const name = CAST[who === 'signedOut' ? 'stranger' : who];
    return this.once(`comment:${name}`, async () => {
      const post = await this.post();
      if (name === 'alice' || name === 'bob') {
        const c = (await this.ok('momentsComment', { id: post, content: `${name} says` }, name)) as { id: number };
        return c.id;
      }
      const row = await new MomentReactionRepo(server.ctx.db).addComment({
        post_id: post,
        user_id: this.people[name].id,
        reply_to_user: 0,
        content: `${name} said`,
        create_time: server.ctx.now(),
      });
      return row.id;
    });
  }

  /** Alice's friendship row with Bob. */
  friendRow(): Promise<number> {
    return this.once('friendRow', async () => {
      const row = await new FriendRepo(server.ctx.db).row(this.people.alice.id, this.people.bob.id);
      return row!.id;
    });
  }

  /** Gus asks alice to be friends again; the request's id. */
  request(): Promise<number> {
    return this.once('request', async () => {
      await this.ok('friendAdd', { user_id: this.people.alice.id }, 'gus');
      const list = (await this.ok('friendIndex', { is_mine: 0 }, 'alice')) as Array<{ friend_id: number }>;
      return list[0]!.friend_id;
    });
  }

  /** Ivy, a friend of alice, Dan and Carl, so that each of them may invite her. */
  invitee(): Promise<{ id: number }> {
    return this.once('invitee', async () => {
      const { ivy, alice, dan, carl } = this.people;
      const friends = new FriendRepo(server.ctx.db);
      for (const u of [alice, dan, carl]) await friends.befriend(ivy.id, u.id, server.ctx.now());
      return ivy;
    });
  }

  /**
   * Merged records of alice's: one to Bob of her message to him; one in G holding her group
   * message and a record (of her notes) inside it, whose id is `nested`.
   */
  records(): Promise<{ toBob: number; inGroup: number; nested: number }> {
    return this.once('records', async () => {
      const { gid, msg } = await this.group();
      const { alice, bob } = this.people;
      const newestRecord = async (toContactId: string | number) => {
        const list = (await this.ok('getMessageList', { toContactId }, 'alice')) as Array<{
          msg_id: number;
          type: string;
          extends: { record_id?: number };
        }>;
        return list.filter((m) => m.type === 'record').at(-1)!;
      };
      await this.ok('forwardMessages', { msg_ids: [this.toBob.msg_id], user_ids: [bob.id], mode: 'merge' }, 'alice');
      const toBob = await newestRecord(bob.id);
      await this.ok('forwardMessages', { msg_ids: [await this.note('owner')], user_ids: [-1], mode: 'merge' }, 'alice');
      const inner = await newestRecord(alice.id);
      await this.ok(
        'forwardMessages',
        { msg_ids: [msg.msg_id, inner.msg_id], user_ids: [gid], mode: 'merge' },
        'alice',
      );
      const inGroup = await newestRecord(gid);
      return { toBob: toBob.msg_id, inGroup: inGroup.msg_id, nested: inner.extends.record_id! };
    });
  }

  /** A note `who` wrote to their own chat (-1). */
  note(who: Caller): Promise<number> {
    return this.once(
      `note:${who}`,
      async () => (await this.say(CAST[who === 'signedOut' ? 'stranger' : who], text(-1))).msg_id,
    );
  }

  /** A live socket of `who`'s, bound to them (unbound when signed out). */
  socket(who: Caller): Promise<TestSocket> {
    return this.once(`socket:${who}`, async () => {
      const p = this.person(who);
      const sock = who === 'signedOut' ? await TestSocket.open(server) : await TestSocket.bound(server, p.id, p.token!);
      this.sockets.push(sock);
      return sock;
    });
  }

  close(): void {
    for (const sock of this.sockets) sock.close();
  }
}

let pngUpload: Buffer;

async function send(s: Scene, name: RouteName, body: Body, who: Caller) {
  const token = who === 'signedOut' ? undefined : s.person(who).token;
  if (!routes[name].multipart) return server.call(name, body, { token });
  const fields = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]));
  return (await server.upload(name, { name: 'a.png', bytes: pngUpload, type: 'image/png' }, { token, fields })).json;
}

describeEachDb('permissions of every route that takes an id', (target) => {
  beforeAll(async () => {
    server = await startServer(target);
    await server.ctx.config.set('rateLimits.anyCall.perMinute', '100000');
    pngUpload = await png(0, 0);
  });
  afterAll(async () => {
    await server.close();
  });

  for (const [name, rows] of Object.entries(MATRIX) as Array<[RouteName, Row[]]>) {
    for (const row of rows) {
      it(`${name} on ${row.target}`, async () => {
        const allowed = ACTORS.filter((_, i) => row.expect[i] === OK);
        const alone = row.changes === true ? allowed : (row.changes ?? []);
        const want = (who: Actor | Extra): Answer =>
          who === 'blocked' ? row.blocked! : row.expect[ACTORS.indexOf(who)]!;
        const run = async (s: Scene, who: Actor | Extra) => {
          const res = await send(s, name, await row.body(s, who), who);
          expectAnswer(res, want(who), `${name} on ${row.target} as ${who}`);
          if (res.code === 0) row.check?.(res.data, who);
          return res;
        };

        const s = await Scene.create();
        try {
          const answers = new Map<Actor | Extra, { code: number; msg: string }>();
          for (const who of ACTORS) if (!alone.includes(who)) answers.set(who, await run(s, who));
          if (row.blocked !== undefined) answers.set('blocked', await run(s, 'blocked'));
          const out = await send(s, name, await row.body(s, 'signedOut'), 'signedOut');
          expectAnswer(out, 'NoSession', `${name} signed out`);
          await row.intact?.(s);

          // "Not found" and "not yours" answered alike, to the letter.
          const probes = [...(await row.missing(s))];
          if (row.hidden) probes.push(await row.hidden(s));
          const gone: Array<{ code: number; msg: string }> = [];
          for (const body of probes) gone.push(face(await send(s, name, body, 'stranger')));
          const [first] = gone;
          for (const g of gone) expectAnswer(g, row.gone, `${name} on a missing id`);
          for (const [who, res] of answers) {
            if (want(who) !== row.gone) continue;
            expect(face(res), `${name}: ${who} on ${row.target} vs a missing id`).toEqual(first);
          }
          if (row.gap) {
            const theirs = answers.get('stranger')!;
            expect(face(theirs), `fixed? then drop the gap note of ${name}: ${row.gap}`).not.toEqual(first);
          }
        } finally {
          s.close();
        }

        for (const who of alone) {
          const fresh = await Scene.create();
          try {
            await run(fresh, who);
          } finally {
            fresh.close();
          }
        }
      });
    }
  }

  it("answers a deleted account's session on every route of the safety work as none, in the caller's language", async () => {
    const [gone, keeper] = [await signUp(server, `gone${target}`), await signUp(server, `keep${target}`)];
    // Both administrators, so that the one deleting is not the last.
    await server.ctx.db.updateTable('users').set({ role: 1 }).where('id', 'in', [gone.userId, keeper.userId]).execute();
    const before = (await server.call('exportRequest', {}, { token: gone.token })).data as { id: number };
    // A key the schema does not know is dropped: naming someone else deletes no one but the caller.
    const deleted = await server.call(
      'accountDelete',
      { password: gone.password, user_id: keeper.userId },
      {
        token: gone.token,
      },
    );
    expect(deleted.code, deleted.msg).toBe(0);
    expect((await server.call('checkuser', {}, { token: keeper.token })).code).toBe(0);

    for (const [i, name] of SAFETY_ROUTES.entries()) {
      const lang = LANGS[i % LANGS.length]!;
      const res = await server.call(name, safetyBody(name), { token: gone.token, lang });
      expect(face(res), `${name} [${lang}]`).toEqual({
        code: ErrorCodes.NoSession,
        msg: translate(negotiateLocale(lang), 'errors.NoSession'),
      });
    }
    const download = await fetch(`${server.url}${EXPORT_DOWNLOAD_PATH}?id=${before.id}`, {
      headers: { authorization: gone.token },
    });
    expect(download.status).toBe(401);
  });

  it('answers a deleted account as a target as one that never was (block, report)', async () => {
    const s = await Scene.create();
    try {
      const gone = await signUp(server, `gone2${target}`);
      expect((await server.call('accountDelete', { password: gone.password }, { token: gone.token })).code).toBe(0);
      const as = { token: s.person('stranger').token };
      for (const [name, make] of [
        ['blockAdd', (id: number) => ({ user_id: id })],
        ['report', (id: number) => ({ kind: 'user', id, reason: 'spam' })],
      ] as const) {
        const deletedOne = await server.call(name, make(gone.userId), as);
        const missing = await server.call(name, make(NO_USER), as);
        expectAnswer(deletedOne, UNF, `${name} of a deleted account`);
        expect(face(deletedOne), name).toEqual(face(missing));
      }
    } finally {
      s.close();
    }
  });

  it("answers a bad body of every route of the safety work with the envelope in the caller's language", async () => {
    const s = await Scene.create();
    const root = await signUp(server, `root${target}`);
    await server.ctx.db.updateTable('users').set({ role: 1 }).where('id', '=', root.userId).execute();
    try {
      const gid = (await s.group()).gid;
      for (const [i, [name, field, value, key, params]] of BAD_SAFETY_BODIES.entries()) {
        const lang = LANGS[i % LANGS.length]!;
        const locale = negotiateLocale(lang);
        const body: Body = { ...safetyBody(name), ...(name === 'groupSetting' && { id: gid }) };
        if (value === MISSING) delete body[field];
        else body[field] = value;
        const token = routes[name].admin ? root.token : s.person('owner').token;
        const res = await server.call(name, body, { token, lang });
        const named = translate(locale, `field.${field}` as MessageKey);
        const label = named === `field.${field}` ? translate(locale, 'field.body') : named;
        const what = `${name} ${field}=${value === MISSING ? '(missing)' : JSON.stringify(value).slice(0, 40)} [${lang}]`;
        expect(res.code, what).toBe(400);
        expect(res.data?.fields, what).toContain(field);
        expect(res.msg, what).toBe(translate(locale, key, { field: label, ...params }));
      }
      // Every route of the safety work that takes a field has a bad body above.
      const fields = (n: RouteName) => Object.keys((routes[n].body as { shape?: object }).shape ?? {}).length;
      expect(SAFETY_ROUTES.filter((n) => fields(n) && !BAD_SAFETY_BODIES.some(([r]) => r === n))).toEqual([]);
    } finally {
      s.close();
    }
  });

  it('drops what a body names beyond its schema: no one else’s block, report, export or group setting', async () => {
    const s = await Scene.create();
    try {
      const { alice, bob, carl, sam } = s.people;
      const { gid } = await s.group();
      const id = Number(gid.slice('group-'.length));
      await s.ok('blockAdd', { user_id: sam.id, blocker_id: bob.id, user: bob.id }, 'carl');
      const blocks = await server.ctx.db.selectFrom('blocks').selectAll().where('blocked_id', '=', sam.id).execute();
      expect(blocks.map((b) => b.blocker_id)).toEqual([carl.id]);

      const filed = (await s.ok(
        'report',
        {
          kind: 'user',
          id: sam.id,
          reason: 'spam',
          status: 'closed',
          action: 'takedown',
          reporter_id: bob.id,
          handler_id: alice.id,
        },
        'carl',
      )) as { id: number };
      const report = await server.ctx.db
        .selectFrom('reports')
        .selectAll()
        .where('id', '=', filed.id)
        .executeTakeFirstOrThrow();
      expect(report).toMatchObject({ reporter_id: carl.id, status: 'new', action: '', handler_id: null });

      const asked = (await s.ok('exportRequest', { user_id: bob.id, state: 'done' }, 'carl')) as { id: number };
      const row = await server.ctx.db
        .selectFrom('data_exports')
        .selectAll()
        .where('id', '=', asked.id)
        .executeTakeFirstOrThrow();
      expect(row.user_id).toBe(carl.id);

      await s.ok(
        'groupSetting',
        { id: gid, setting: { retention: 30, owner_id: carl.id }, owner_id: carl.id },
        'alice',
      );
      const group = await server.ctx.db
        .selectFrom('groups')
        .select(['owner_id', 'setting'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(group.owner_id).toBe(alice.id);
      expect(JSON.parse(group.setting)).not.toHaveProperty('owner_id');
      expect(JSON.parse(group.setting).retention).toBe(30);
    } finally {
      s.close();
    }
  });
});

/** The routes of the safety work (block, report, deleting an account, exports, keyword rules, review, the report queue), and groupSetting that carries a group's retention. */
const SAFETY_ROUTES = (Object.keys(routes) as RouteName[]).filter(
  (n) =>
    /^\/enterprise\/(block|report)\//.test(routes[n].path) ||
    /^\/enterprise\/account\/(delete|export)/.test(routes[n].path) ||
    /^\/manage\/(keyword|held|report)/i.test(routes[n].path) ||
    n === 'groupSetting',
);

/** A body each of them takes. */
const SAFETY_BODY: Partial<Record<RouteName, Body>> = {
  blockAdd: { user_id: NO_USER },
  blockDel: { user_id: NO_USER },
  report: { kind: 'user', id: NO_USER, reason: 'spam' },
  accountDelete: { password: 'secret123' },
  exportStatus: { id: 0 },
  manageReportGet: { id: NO_ID },
  manageReportAct: { id: NO_ID, action: 'dismiss' },
  manageKeywordListCreate: { name: 'list', action: 'refuse' },
  manageKeywordListUpdate: { id: NO_ID, enabled: 0 },
  manageKeywordListDel: { id: NO_ID },
  manageKeywordWords: { list_id: NO_ID },
  manageKeywordAdd: { list_id: NO_ID, words: 'word' },
  manageKeywordRemove: { list_id: NO_ID, ids: [NO_ID] },
  manageKeywordTest: { text: 'a text' },
  manageHeldDecide: { id: NO_ID, decision: 'reject' },
  groupSetting: { id: NO_GROUP, setting: { retention: 30 } },
};
const safetyBody = (name: RouteName): Body => ({ ...SAFETY_BODY[name] });

const MISSING = Symbol('missing');
/** [route, field, value (or MISSING), message key, its params]: one field spoilt at a time. */
const BAD_SAFETY_BODIES: Array<[RouteName, string, unknown, MessageKey, Record<string, string | number>?]> = [
  ['blockAdd', 'user_id', 'someone', 'validation.invalid'],
  ['blockAdd', 'user_id', MISSING, 'validation.required'],
  ['blockDel', 'user_id', { id: 1 }, 'validation.invalid'],
  ['blockList', 'page', 'first', 'validation.invalid'],
  ['report', 'kind', 'video', 'validation.invalid'],
  ['report', 'reason', 'bored', 'validation.invalid'],
  ['report', 'id', MISSING, 'validation.required'],
  ['report', 'text', 'x'.repeat(REPORT_TEXT_MAX + 1), 'validation.tooLong', { max: REPORT_TEXT_MAX }],
  ['report', 'file_ids', Array.from({ length: 50 }, (_, i) => i + 1), 'validation.invalid'],
  ['accountDelete', 'password', 123456, 'validation.invalid'],
  ['accountDelete', 'password', MISSING, 'validation.required'],
  ['exportStatus', 'id', 'newest', 'validation.invalid'],
  ['manageReportList', 'status', 'open', 'validation.invalid'],
  ['manageReportGet', 'id', -1, 'validation.invalid'],
  ['manageReportAct', 'action', 'explode', 'validation.invalid'],
  ['manageReportAct', 'minutes', 600_000, 'validation.invalid'],
  [
    'manageKeywordListCreate',
    'name',
    'x'.repeat(KEYWORD_LIST_NAME_MAX + 1),
    'validation.tooLong',
    { max: KEYWORD_LIST_NAME_MAX },
  ],
  ['manageKeywordListCreate', 'action', 'ban', 'validation.invalid'],
  ['manageKeywordListUpdate', 'enabled', 2, 'validation.invalid'],
  ['manageKeywordListDel', 'id', 'all', 'validation.invalid'],
  ['manageKeywordWords', 'list_id', MISSING, 'validation.required'],
  ['manageKeywordAdd', 'words', 5, 'validation.invalid'],
  ['manageKeywordRemove', 'ids', [], 'validation.invalid'],
  ['manageKeywordTest', 'text', MISSING, 'validation.required'],
  ['manageHeldList', 'status', 3, 'validation.invalid'],
  ['manageHeldDecide', 'decision', 'maybe', 'validation.invalid'],
  ['groupSetting', 'setting', { retention: 8 }, 'validation.invalid'],
];
