import { DEFAULT_GROUP_SETTING, type GroupInfo, type GroupMember } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import { groupMember } from '../test/fixtures';
import {
  applyGroupPush,
  applyProfile,
  createGroups,
  groupSpeakState,
  pushGroupId,
  type GroupDeps,
  type GroupEntry,
  type GroupPush,
} from './group';

const GID = 'group-7';
const OWNER = 1;
const ADMIN = 2;
const ME = 3;
const OTHER = 4;
const NOW = 1_750_000_000_000;

const member = groupMember;

function groupInfo(extra: Partial<GroupInfo> = {}): GroupInfo {
  return {
    group_id: GID,
    id: GID,
    displayName: 'Team',
    name: 'Team',
    avatar: '/g/1.png',
    owner_id: OWNER,
    owner: { user_id: OWNER, id: OWNER, realname: 'u1', avatar: '/a/1.png' },
    notice: '',
    setting: { ...DEFAULT_GROUP_SETTING },
    member_count: 4,
    isJoin: 3,
    groupUserCount: 4,
    ownerName: 'u1',
    nickname: '',
    no_speak_until: 0,
    create_time: 0,
    qrUrl: 'http://x/#/pages/index/qqrcode?token=t',
    qrExpire: NOW,
    ...extra,
  };
}

const members = () => [member(OWNER, 1), member(ADMIN, 2), member(ME, 3), member(OTHER, 3)];

function ready(extra: Partial<GroupEntry> = {}): GroupEntry {
  return { status: 'ready', info: groupInfo(), members: members(), pushes: 0, leaving: false, error: '', ...extra };
}

const apply = (entry: GroupEntry, event: GroupPush) => applyGroupPush(entry, event, ME);
const roles = (e: GroupEntry) => e.members?.map((m) => [m.user_id, m.role]);

describe('applyGroupPush: every group push, as the member it reaches sees it', () => {
  it('setManager changes a role, mine included, and keeps admins before members', () => {
    const { entry } = apply(ready(), { type: 'setManager', data: { group_id: GID, user_id: OTHER, role: 2 } });
    expect(roles(entry)).toEqual([
      [OWNER, 1],
      [ADMIN, 2],
      [OTHER, 2],
      [ME, 3],
    ]);
    const mine = apply(ready(), { type: 'setManager', data: { group_id: GID, user_id: ME, role: 2 } }).entry;
    expect(mine.info?.isJoin).toBe(2);
    const back = apply(mine, { type: 'setManager', data: { group_id: GID, user_id: ME, role: 3 } }).entry;
    expect(back.info?.isJoin).toBe(3);
  });

  it('groupAvatar changes only the group’s picture', () => {
    const { entry } = apply(ready(), { type: 'groupAvatar', data: { group_id: GID, avatar: '/g/new.png' } });
    expect(entry.info?.avatar).toBe('/g/new.png');
    expect(roles(entry)).toEqual(roles(ready()));
  });

  it('setNoSpeak mutes and lifts, and says when my own mute ends', () => {
    const until = NOW + 600_000;
    const muted = apply(ready(), {
      type: 'setNoSpeak',
      data: { group_id: GID, user_id: ME, no_speak_until: until },
    }).entry;
    expect(muted.info?.no_speak_until).toBe(until);
    expect(muted.members?.find((m) => m.user_id === ME)?.no_speak_until).toBe(until);
    expect(groupSpeakState(muted, NOW)).toEqual({ canSpeak: false, reason: 'muted', until });
    expect(groupSpeakState(muted, until)).toEqual({ canSpeak: true });
    const lifted = apply(muted, { type: 'setNoSpeak', data: { group_id: GID, user_id: ME, no_speak_until: 0 } }).entry;
    expect(groupSpeakState(lifted, NOW)).toEqual({ canSpeak: true });

    const other = apply(ready(), {
      type: 'setNoSpeak',
      data: { group_id: GID, user_id: OTHER, no_speak_until: until },
    }).entry;
    expect(other.info?.no_speak_until).toBe(0);
    expect(other.members?.find((m) => m.user_id === OTHER)?.no_speak_until).toBe(until);
  });

  it('removeUser drops another member and counts one less', () => {
    const { entry } = apply(ready(), {
      type: 'removeUser',
      data: { group_id: GID, user_id: OTHER, avatar: '/g/2.png' },
    });
    expect(entry.members?.map((m) => m.user_id)).toEqual([OWNER, ADMIN, ME]);
    expect(entry.info?.member_count).toBe(3);
    expect(entry.info?.avatar).toBe('/g/2.png');
    expect(entry.status).toBe('ready');
  });

  it('removeUser about me means removed, or left when I asked to leave', () => {
    expect(apply(ready(), { type: 'removeUser', data: { group_id: GID, user_id: ME } }).entry.status).toBe('removed');
    expect(
      apply(ready({ leaving: true }), { type: 'removeUser', data: { group_id: GID, user_id: ME } }).entry.status,
    ).toBe('left');
    const gone = apply(ready(), { type: 'removeUser', data: { group_id: GID, user_id: ME } }).entry;
    expect(groupSpeakState(gone, NOW)).toEqual({ canSpeak: false, reason: 'notMember' });
  });

  it('removeGroup and disbandGroup mean the group was disbanded', () => {
    expect(apply(ready(), { type: 'removeGroup', data: { group_id: GID } }).entry.status).toBe('disbanded');
    expect(apply(ready(), { type: 'disbandGroup', data: { group_id: GID } }).entry.status).toBe('disbanded');
    expect(pushGroupId({ type: 'disbandGroup', data: { group_id: GID } })).toBe(GID);
  });

  it('editGroupName, setNotice and groupSetting change the record', () => {
    let e = apply(ready(), {
      type: 'editGroupName',
      data: { id: GID, displayName: 'Renamed', editUserName: 'u1' },
    }).entry;
    expect(e.info?.displayName).toBe('Renamed');
    e = apply(e, { type: 'setNotice', data: { group_id: GID, notice: '<p><strong>Hi</strong></p>' } }).entry;
    expect(e.info?.notice).toBe('<p><strong>Hi</strong></p>');
    e = apply(e, {
      type: 'groupSetting',
      data: {
        group_id: GID,
        setting: {
          invite: 0,
          history: 1,
          profile: 1,
          nospeak: 2,
          manage: 0,
          pin: 0,
          reaction: 1,
          receipt: 1,
          retention: 0,
        },
      },
    }).entry;
    expect(e.info?.setting).toMatchObject({ invite: 0, nospeak: 2 });
    expect(groupSpeakState(e, NOW)).toEqual({ canSpeak: false, reason: 'onlyOwner' });
  });

  it('asks for the members again when the profile setting or my role in a closed group changes, since their profile flags follow', () => {
    const setting = {
      invite: 1,
      history: 1,
      profile: 0,
      nospeak: 0,
      manage: 0,
      pin: 0,
      reaction: 1,
      receipt: 1,
      retention: 0,
    } as const;
    const closing = apply(ready(), { type: 'groupSetting', data: { group_id: GID, setting } });
    expect(closing.refetch).toBe('members');
    expect(apply(closing.entry, { type: 'groupSetting', data: { group_id: GID, setting } }).refetch).toBe('none');
    const promoted = apply(closing.entry, { type: 'setManager', data: { group_id: GID, user_id: ME, role: 2 } });
    expect(promoted.refetch).toBe('members');
    expect(apply(ready(), { type: 'setManager', data: { group_id: GID, user_id: ME, role: 2 } }).refetch).toBe('none');
  });

  it('changeOwner makes the new owner and turns the old one into an admin, unmuted', () => {
    const start = ready({
      members: [member(OWNER, 1), member(ADMIN, 2), member(ME, 3, { no_speak_until: NOW + 1000 }), member(OTHER, 3)],
      info: groupInfo({ no_speak_until: NOW + 1000 }),
    });
    const { entry, refetch } = apply(start, { type: 'changeOwner', data: { group_id: GID, user_id: ME } });
    expect(refetch).toBe('none');
    expect(roles(entry)).toEqual([
      [ME, 1],
      [OWNER, 2],
      [ADMIN, 2],
      [OTHER, 3],
    ]);
    expect(entry.members?.[0]?.no_speak_until).toBe(0);
    expect(entry.info).toMatchObject({
      owner_id: ME,
      isJoin: 1,
      no_speak_until: 0,
      owner: { user_id: ME, realname: 'u3' },
    });

    // The old owner's own view: now an administrator.
    const asOldOwner = applyGroupPush(
      ready({ info: groupInfo({ isJoin: 1 }) }),
      { type: 'changeOwner', data: { group_id: GID, user_id: ADMIN } },
      OWNER,
    );
    expect(asOldOwner.entry.info?.isJoin).toBe(2);
    expect(roles(asOldOwner.entry)?.slice(0, 2)).toEqual([
      [ADMIN, 1],
      [OWNER, 2],
    ]);
  });

  it('addGroupUser counts the newcomers and asks for the member list again', () => {
    const { entry, refetch } = apply(ready(), {
      type: 'addGroupUser',
      data: { group_id: GID, user_ids: [8, 9, OTHER], avatar: '/g/3.png' },
    });
    expect(entry.info?.member_count).toBe(6);
    expect(entry.info?.avatar).toBe('/g/3.png');
    expect(refetch).toBe('members');
  });

  it('addGroup after I was removed asks for everything again', () => {
    const removed = apply(ready(), { type: 'removeUser', data: { group_id: GID, user_id: ME } }).entry;
    const back = apply(removed, { type: 'addGroup', data: { id: GID } as never });
    expect(back.refetch).toBe('all');
    expect(apply(ready(), { type: 'addGroup', data: { id: GID } as never }).refetch).toBe('none');
  });

  it('updates the record even before the member list arrives', () => {
    const e = apply(ready({ members: null }), {
      type: 'setNoSpeak',
      data: { group_id: GID, user_id: ME, no_speak_until: NOW + 5 },
    }).entry;
    expect(e.members).toBeNull();
    expect(e.info?.no_speak_until).toBe(NOW + 5);
  });

  it('counts the pushes it applies', () => {
    const e = apply(apply(ready(), { type: 'setNotice', data: { group_id: GID, notice: 'a' } }).entry, {
      type: 'setNotice',
      data: { group_id: GID, notice: 'b' },
    }).entry;
    expect(e.pushes).toBe(2);
  });
});

describe('applyProfile: a member’s new name or picture (profileChanged)', () => {
  it('changes their row, under their group nickname if they have one, and the owner’s card', () => {
    const entry = ready({ members: [member(OWNER, 1), member(OTHER, 3, { nickname: '小王' })] });
    const owner = applyProfile(entry, { user_id: OWNER, realname: 'Olga', avatar: '/storage/o.webp' });
    expect(owner.members?.[0]?.userInfo).toMatchObject({
      realname: 'Olga',
      displayName: 'Olga',
      avatar: '/storage/o.webp',
    });
    expect(owner.info?.owner).toMatchObject({ realname: 'Olga', avatar: '/storage/o.webp' });
    const other = applyProfile(owner, { user_id: OTHER, realname: 'Wang', avatar: '/storage/w.webp' });
    expect(other.members?.[1]?.userInfo).toMatchObject({
      realname: 'Wang',
      displayName: '小王',
      avatar: '/storage/w.webp',
    });
    expect(other.members?.[0]).toBe(owner.members?.[0]);
  });

  it('leaves a group they are not in as it was', () => {
    const entry = ready();
    expect(applyProfile(entry, { user_id: 99, realname: 'x', avatar: '' })).toBe(entry);
  });

  it('reaches every group held that shows them', async () => {
    const groups = createGroups(fakeServer().deps);
    await groups.load(GID);
    groups.applyProfile({ user_id: OTHER, realname: 'Wang', avatar: '/storage/w.webp' });
    const shown = groups.store.getState().groups[GID]?.members?.find((m) => m.user_id === OTHER);
    expect(shown?.userInfo.avatar).toBe('/storage/w.webp');
  });
});

describe('pushGroupId', () => {
  it('finds the group of each push; an ex-friend removeGroup has none', () => {
    expect(pushGroupId({ type: 'editGroupName', data: { id: GID, displayName: 'x', editUserName: 'y' } })).toBe(GID);
    expect(pushGroupId({ type: 'removeGroup', data: { group_id: 42 } })).toBeNull();
    expect(pushGroupId({ type: 'setNotice', data: { group_id: GID, notice: '' } })).toBe(GID);
  });
});

/** A server stand-in whose answers the test releases by hand. */
function fakeServer() {
  let info = groupInfo();
  let list = members();
  const calls = { info: 0, members: 0 };
  const gates: (() => void)[] = [];
  let hold = false;
  const wait = () => (hold ? new Promise<void>((r) => gates.push(r)) : Promise.resolve());
  const deps: GroupDeps = {
    groupInfo: async () => {
      calls.info += 1;
      const snapshot = info;
      await wait();
      return snapshot;
    },
    groupUserList: async () => {
      calls.members += 1;
      const snapshot = list;
      await wait();
      return snapshot;
    },
    me: () => ME,
  };
  return {
    deps,
    calls,
    set(next: { info?: GroupInfo; list?: GroupMember[] }) {
      info = next.info ?? info;
      list = next.list ?? list;
    },
    hold(v: boolean) {
      hold = v;
    },
    release() {
      gates.splice(0).forEach((r) => r());
    },
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('the group store', () => {
  it('loads a group once, however many pages ask', async () => {
    const server = fakeServer();
    const groups = createGroups(server.deps);
    groups.ensure(GID);
    groups.ensure(GID);
    await groups.load(GID);
    expect(server.calls).toEqual({ info: 1, members: 1 });
    expect(groups.store.getState().groups[GID]?.status).toBe('ready');
  });

  it('ignores pushes about groups nobody has open', () => {
    const groups = createGroups(fakeServer().deps);
    groups.apply({ type: 'setNotice', data: { group_id: GID, notice: 'x' } });
    expect(groups.store.getState().groups).toEqual({});
  });

  it('applies pushes to an open group and fetches newcomers', async () => {
    const server = fakeServer();
    const groups = createGroups(server.deps);
    await groups.load(GID);
    server.set({ list: [...members(), member(9, 3)] });
    groups.apply({ type: 'addGroupUser', data: { group_id: GID, user_ids: [9], avatar: '' } });
    await flush();
    const e = groups.store.getState().groups[GID]!;
    expect(e.info?.member_count).toBe(5);
    expect(e.members?.map((m) => m.user_id)).toContain(9);
    expect(server.calls.members).toBe(2);
  });

  it('asks again when a push lands while the first answer is on its way', async () => {
    const server = fakeServer();
    const groups = createGroups(server.deps);
    server.hold(true);
    const loading = groups.load(GID);
    await flush();
    // The server changed the notice after it answered; the push reaches us before the answer.
    server.set({ info: groupInfo({ notice: 'new' }) });
    groups.apply({ type: 'setNotice', data: { group_id: GID, notice: 'new' } });
    server.hold(false);
    server.release();
    await loading;
    expect(server.calls.info).toBe(2);
    expect(groups.store.getState().groups[GID]?.info?.notice).toBe('new');
  });

  it('keeps the reason when a group cannot be loaded', async () => {
    const groups = createGroups({
      groupInfo: () => Promise.reject(new Error('你不是该群成员')),
      groupUserList: () => Promise.resolve([]),
      me: () => ME,
    });
    await groups.load(GID);
    expect(groups.store.getState().groups[GID]).toMatchObject({ status: 'error', error: '你不是该群成员' });
    expect(groupSpeakState(groups.store.getState().groups[GID], NOW)).toBeNull();
  });

  it('keeps a group I left or that was disbanded closed, and reloads what is open after a reconnect', async () => {
    const server = fakeServer();
    const groups = createGroups(server.deps);
    await groups.load(GID);
    await groups.load('group-8');
    groups.markGone('group-8', 'disbanded');
    groups.refreshAll();
    await flush();
    expect(server.calls.info).toBe(3);
    expect(groups.store.getState().groups['group-8']?.status).toBe('disbanded');
  });

  it('records my group nickname, which the server does not push back', async () => {
    const groups = createGroups(fakeServer().deps);
    await groups.load(GID);
    groups.setMyNickname(GID, 'Captain');
    const e = groups.store.getState().groups[GID]!;
    expect(e.info?.nickname).toBe('Captain');
    expect(e.members?.find((m) => m.user_id === ME)?.nickname).toBe('Captain');
  });

  it('forgets everything on sign-out', async () => {
    const groups = createGroups(fakeServer().deps);
    await groups.load(GID);
    groups.forget();
    expect(groups.store.getState().groups).toEqual({});
  });
});
