import { GroupRoles, type GroupRole } from '@sparrow/protocol';
import type { GroupInfo, GroupMember, GroupSetting, PushPayloads } from '@sparrow/protocol';
import { useEffect } from 'react';
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { api } from '../api';
import { useNowUntil } from '../lib/use-now-until';
import { sessionStore } from './session';
import { sortMembers, speakState, type SpeakState } from './group-rules';

/**
 * Open groups (group info, member management, the chat page's speak state): fetched over HTTP,
 * then kept current by the pushes of docs/protocol.md §4, so every open page changes as the group does.
 */

/** `removed`: someone removed me; `left`: I left; `disbanded`: the owner disbanded the group. */
export type GroupStatus = 'loading' | 'ready' | 'error' | 'removed' | 'left' | 'disbanded';

export interface GroupEntry {
  status: GroupStatus;
  info: GroupInfo | null;
  /** Owner first, then administrators, then members; null until fetched. */
  members: GroupMember[] | null;
  /** Counts the pushes applied, so a fetch that raced one is repeated. */
  pushes: number;
  /** I asked to leave: my own removeUser push means `left`, not `removed`. */
  leaving: boolean;
  /** Why the last load failed (the server's message), shown with a retry. */
  error: string;
}

export interface GroupState {
  groups: Record<string, GroupEntry>;
}

/** The pushes that change a group's record or its members. */
export const GROUP_PUSHES = [
  'setManager',
  'groupAvatar',
  'removeUser',
  'setNoSpeak',
  'editGroupName',
  'setNotice',
  'groupSetting',
  'changeOwner',
  'removeGroup',
  'disbandGroup',
  'addGroupUser',
  'addGroup',
] as const;

export type GroupPushName = (typeof GROUP_PUSHES)[number];
export type GroupPush = { [E in GroupPushName]: { type: E; data: PushPayloads[E] } }[GroupPushName];

/** The group a push is about; null for pushes of another kind (an ex-friend's removeGroup). */
export function pushGroupId(event: GroupPush): string | null {
  switch (event.type) {
    case 'editGroupName':
    case 'addGroup':
      return typeof event.data.id === 'string' ? event.data.id : null;
    case 'removeGroup':
      return typeof event.data.group_id === 'string' ? event.data.group_id : null;
    case 'disbandGroup':
    case 'setManager':
    case 'groupAvatar':
    case 'removeUser':
    case 'setNoSpeak':
    case 'setNotice':
    case 'groupSetting':
    case 'changeOwner':
    case 'addGroupUser':
      return event.data.group_id;
  }
}

const emptyEntry = (): GroupEntry => ({
  status: 'loading',
  info: null,
  members: null,
  pushes: 0,
  leaving: false,
  error: '',
});

function patchMember(
  members: GroupMember[] | null,
  userId: number,
  patch: (m: GroupMember) => GroupMember,
): GroupMember[] | null {
  if (!members) return members;
  return sortMembers(members.map((m) => (m.user_id === userId ? patch(m) : m)));
}

function withAvatar(info: GroupInfo, avatar: string | undefined): GroupInfo {
  return avatar ? { ...info, avatar } : info;
}

/** What applying a push did: the new entry, and whether the member list must be fetched again. */
export interface PushOutcome {
  entry: GroupEntry;
  refetch: 'none' | 'members' | 'all';
}

/**
 * One push applied to one group as `me` sees it. Pure: the store and the tests share it.
 * Pushes name users by id only; a new member's profile needs a fetch (`refetch`).
 */
export function applyGroupPush(entry: GroupEntry, event: GroupPush, me: number): PushOutcome {
  const next: GroupEntry = { ...entry, pushes: entry.pushes + 1 };
  const info = entry.info;
  const done = (e: GroupEntry, refetch: PushOutcome['refetch'] = 'none'): PushOutcome => ({ entry: e, refetch });

  switch (event.type) {
    case 'removeGroup':
    case 'disbandGroup':
      return done({ ...next, status: 'disbanded' });
    case 'addGroup':
      // Back in a group I had left or been removed from: everything is to be fetched again.
      return done({ ...next, leaving: false }, entry.status === 'ready' || entry.status === 'loading' ? 'none' : 'all');
    case 'removeUser': {
      const { user_id, avatar } = event.data;
      if (user_id === me) return done({ ...next, status: entry.leaving ? 'left' : 'removed' });
      const had = entry.members?.some((m) => m.user_id === user_id) ?? true;
      return done({
        ...next,
        members: entry.members?.filter((m) => m.user_id !== user_id) ?? null,
        info: info && withAvatar({ ...info, member_count: Math.max(0, info.member_count - (had ? 1 : 0)) }, avatar),
      });
    }
    case 'addGroupUser': {
      const { user_ids, avatar } = event.data;
      const known = new Set(entry.members?.map((m) => m.user_id) ?? []);
      const added = user_ids.filter((id) => !known.has(id)).length;
      return done(
        { ...next, info: info && withAvatar({ ...info, member_count: info.member_count + added }, avatar) },
        'members',
      );
    }
    case 'setManager': {
      const { user_id, role, avatar } = event.data;
      if (user_id === undefined || (role !== GroupRoles.Admin && role !== GroupRoles.Member))
        return done({ ...next, info: info && withAvatar(info, avatar) });
      const r = role as 2 | 3;
      // An admin may open every member's profile; my new role changes which ones a closed group lets me open.
      const closed = user_id === me && info?.setting.profile === 0;
      return done(
        {
          ...next,
          info: info && withAvatar(user_id === me ? { ...info, isJoin: r } : info, avatar),
          members: patchMember(entry.members, user_id, (m) => ({ ...m, role: r })),
        },
        closed ? 'members' : 'none',
      );
    }
    case 'groupAvatar':
      return done({ ...next, info: info && withAvatar(info, event.data.avatar) });
    case 'changeOwner': {
      const newOwner = event.data.user_id;
      const oldOwner = info?.owner_id ?? entry.members?.find((m) => m.role === GroupRoles.Owner)?.user_id;
      const members =
        entry.members &&
        sortMembers(
          entry.members.map((m) => {
            // The new owner cannot stay muted; the old owner becomes an administrator.
            if (m.user_id === newOwner) return { ...m, role: GroupRoles.Owner, no_speak_until: 0 };
            if (m.user_id === oldOwner || m.role === GroupRoles.Owner) return { ...m, role: GroupRoles.Admin };
            return m;
          }),
        );
      let nextInfo = info;
      if (info) {
        const ownerMember = members?.find((m) => m.user_id === newOwner);
        nextInfo = {
          ...info,
          owner_id: newOwner,
          owner: ownerMember
            ? {
                user_id: newOwner,
                id: newOwner,
                realname: ownerMember.userInfo.realname,
                avatar: ownerMember.userInfo.avatar,
              }
            : info.owner,
        };
        if (newOwner === me) nextInfo = { ...nextInfo, isJoin: GroupRoles.Owner, no_speak_until: 0 };
        else if (oldOwner === me) nextInfo = { ...nextInfo, isJoin: GroupRoles.Admin };
      }
      return done({ ...next, info: nextInfo, members }, members || !info?.owner ? 'none' : 'members');
    }
    case 'setNoSpeak': {
      const { user_id, no_speak_until } = event.data;
      return done({
        ...next,
        info: info && user_id === me ? { ...info, no_speak_until } : info,
        members: patchMember(entry.members, user_id, (m) => ({ ...m, no_speak_until })),
      });
    }
    case 'editGroupName': {
      const { displayName } = event.data;
      return done({ ...next, info: info && { ...info, displayName, name: displayName } });
    }
    case 'setNotice':
      return done({ ...next, info: info && { ...info, notice: event.data.notice } });
    case 'groupSetting': {
      // Which members' profiles I may open (each member's `profile` flag) follows the setting.
      const profileChanged =
        event.data.setting.profile !== undefined && event.data.setting.profile !== info?.setting.profile;
      return done(
        { ...next, info: info && { ...info, setting: { ...info.setting, ...event.data.setting } } },
        profileChanged ? 'members' : 'none',
      );
    }
  }
}

/**
 * A member's own name or picture changed (`profileChanged`): their row shows it, under their group
 * nickname if they have one, and so does the owner's card. The entry itself when they are not in it.
 */
export function applyProfile(entry: GroupEntry, changed: PushPayloads['profileChanged']): GroupEntry {
  const { user_id, realname, avatar } = changed;
  const member = entry.members?.find((m) => m.user_id === user_id);
  const owner = entry.info?.owner?.user_id === user_id ? entry.info.owner : undefined;
  if (!member && !owner) return entry;
  return {
    ...entry,
    members:
      entry.members?.map((m) =>
        m.user_id === user_id
          ? { ...m, userInfo: { ...m.userInfo, realname, avatar, displayName: m.nickname || realname } }
          : m,
      ) ?? null,
    info: entry.info && owner ? { ...entry.info, owner: { ...owner, realname, avatar } } : entry.info,
  };
}

export interface GroupDeps {
  groupInfo(groupId: string): Promise<GroupInfo>;
  groupUserList(groupId: string): Promise<GroupMember[]>;
  /** The signed-in user's id; null when signed out. */
  me(): number | null;
}

/** The store and the actions on it; `createGroups` is separate so tests can hand in fakes. */
export function createGroups(
  deps: GroupDeps,
  store: StoreApi<GroupState> = createStore<GroupState>()(() => ({ groups: {} })),
) {
  const inflight = new Map<string, Promise<void>>();

  const get = (id: string): GroupEntry | undefined => store.getState().groups[id];
  const put = (id: string, update: (e: GroupEntry) => GroupEntry) =>
    store.setState((s) => ({ groups: { ...s.groups, [id]: update(s.groups[id] ?? emptyEntry()) } }));

  async function fetchAll(id: string): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const before = get(id)?.pushes ?? 0;
      const [info, members] = await Promise.all([deps.groupInfo(id), deps.groupUserList(id)]);
      const current = get(id);
      // A push that arrived meanwhile may be missing from what came back: ask again.
      if (current && current.pushes !== before && attempt < 2) continue;
      put(id, (e) => ({ ...e, status: 'ready', info, members: sortMembers(members), error: '' }));
      return;
    }
  }

  async function fetchMembers(id: string): Promise<void> {
    const members = await deps.groupUserList(id);
    put(id, (e) => (e.status === 'ready' ? { ...e, members: sortMembers(members) } : e));
  }

  const groups = {
    store,
    /**
     * Fetches the group's record and members; the same call while one runs waits for it. A
     * failure (not a member, no such group) leaves the entry in `error`; the request layer
     * has already shown the server's message unless `silent`.
     */
    load(id: string): Promise<void> {
      const running = inflight.get(id);
      if (running) return running;
      put(id, (e) => ({ ...e, status: e.status === 'ready' ? 'ready' : 'loading' }));
      const run = fetchAll(id)
        .catch((error: unknown) =>
          put(id, (e) => ({
            ...e,
            status: e.status === 'ready' ? 'ready' : 'error',
            error: error instanceof Error ? error.message : '',
          })),
        )
        .finally(() => inflight.delete(id));
      inflight.set(id, run);
      return run;
    },
    /** Loads a group unless it is already held (or loading). */
    ensure(id: string): void {
      const e = get(id);
      if (!e || e.status === 'error') void groups.load(id);
    },
    reloadMembers(id: string): Promise<void> {
      return fetchMembers(id).catch(() => {
        // The list stays as it was; the next push or visit fetches it again.
      });
    },
    /** Applies a push; pushes about groups nobody has open are ignored. */
    apply(event: GroupPush): void {
      const id = pushGroupId(event);
      const me = deps.me();
      const entry = id ? get(id) : undefined;
      if (!id || !entry || me === null) return;
      const { entry: next, refetch } = applyGroupPush(entry, event, me);
      put(id, () => next);
      if (refetch === 'all') void groups.load(id);
      else if (refetch === 'members' && next.status === 'ready') void groups.reloadMembers(id);
    },
    /** Someone's new name or picture, in every group held that shows them. */
    applyProfile(changed: PushPayloads['profileChanged']): void {
      const held = store.getState().groups;
      const next = Object.fromEntries(Object.entries(held).map(([id, e]) => [id, applyProfile(e, changed)]));
      if (Object.keys(next).some((id) => next[id] !== held[id])) store.setState({ groups: next });
    },
    /** My own change the server does not push back to me (updateCard). */
    setMyNickname(id: string, nickname: string): void {
      const me = deps.me();
      put(id, (e) => ({
        ...e,
        info: e.info && { ...e.info, nickname },
        members: e.members?.map((m) => (m.user_id === me ? { ...m, nickname } : m)) ?? null,
      }));
    },
    /** Settings the server accepted from me; its push says the same. */
    patchSetting(id: string, patch: Partial<GroupSetting>): void {
      put(id, (e) => ({ ...e, info: e.info && { ...e.info, setting: { ...e.info.setting, ...patch } } }));
    },
    /** The group went away by my own call; its push may come later, or not at all offline. */
    markGone(id: string, status: 'left' | 'disbanded'): void {
      put(id, (e) => (e.status === 'ready' || e.status === 'loading' ? { ...e, status } : e));
    },
    /** After a reconnect: pushes may have been missed, so what is open is fetched again. */
    refreshAll(): void {
      for (const [id, e] of Object.entries(store.getState().groups)) {
        if (e.status === 'ready') void groups.load(id);
      }
    },
    /** Drops a group the user has left the page of after it went away, or everything on sign-out. */
    forget(id?: string): void {
      if (id === undefined) store.setState({ groups: {} });
      else store.setState((s) => ({ groups: Object.fromEntries(Object.entries(s.groups).filter(([k]) => k !== id)) }));
    },
  };
  return groups;
}

export const groups = createGroups({
  groupInfo: (group_id) => api.groupInfo({ group_id }, { silent: true }),
  groupUserList: (group_id) => api.groupUserList({ group_id }, { silent: true }),
  me: () => sessionStore.getState().user?.user_id ?? null,
});
export const groupStore = groups.store;

/** Mute durations offered (docs/product.md §9), as setNoSpeak's noSpeakTimer values; 0 lifts a mute. */
export const MUTE_TIMERS = [1, 2, 3, 4] as const;
export type MuteTimer = (typeof MUTE_TIMERS)[number];

/**
 * The group calls (docs/protocol.md §3). The server decides each one: a refusal comes back as an
 * ApiError after the request layer has shown its message. Changes reach the store through
 * the pushes that follow, the same way they reach every other member.
 */
export const groupActions = {
  rename: (id: string, displayName: string) => api.editGroupName({ id, displayName }, { loading: true }),
  setNotice: (id: string, notice: string) => api.setNotice({ id, notice }, { loading: true }),
  /** Changes settings; once the server accepts, they show at once, whenever the push arrives. */
  async setting(id: string, setting: Partial<GroupSetting>): Promise<void> {
    await api.groupSetting({ id, setting }, { quiet: true });
    groups.patchSetting(id, setting);
  },
  setManager: (id: string, user_id: number, admin: boolean) =>
    api.setManager({ id, user_id, role: admin ? GroupRoles.Admin : GroupRoles.Member }, { loading: true }),
  changeOwner: (id: string, user_id: number) => api.changeOwner({ id, user_id }, { loading: true }),
  mute: (id: string, user_id: number, noSpeakTimer: MuteTimer | 0) =>
    api.setNoSpeak({ id, user_id, noSpeakTimer }, { loading: true }),
  remove: (id: string, user_id: number) => api.removeUser({ id, user_id }, { loading: true }),
  invite: (id: string, user_ids: number[]) => api.addGroupUser({ id, user_ids }, { loading: true }),
  async disband(id: string): Promise<void> {
    await api.removeGroup({ id }, { loading: true });
    groups.markGone(id, 'disbanded');
  },
  clearHistory: (id: string) => api.clearMessage({ id }, { loading: true }),
  /** Leaves the group (removeUser with my own id); my removeUser push then reads as `left`. */
  async leave(id: string): Promise<void> {
    const me = sessionStore.getState().user?.user_id;
    if (me === undefined) return;
    groupStore.setState((s) => {
      const e = s.groups[id];
      return e ? { groups: { ...s.groups, [id]: { ...e, leaving: true } } } : s;
    });
    try {
      await api.removeUser({ id, user_id: me }, { loading: true });
      groups.markGone(id, 'left');
    } catch (error) {
      groupStore.setState((s) => {
        const e = s.groups[id];
        return e ? { groups: { ...s.groups, [id]: { ...e, leaving: false } } } : s;
      });
      throw error;
    }
  },
  /** My nickname in the group; the server pushes nothing for it, so the store is told here. */
  async updateCard(id: string, nickname: string): Promise<void> {
    await api.updateCard({ group_id: id, nickname }, { loading: true });
    groups.setMyNickname(id, nickname);
  },
  /** A new group avatar (owner and admins); everyone, me included, gets it by push. */
  async uploadAvatar(id: string, file: File): Promise<string> {
    const body = new FormData();
    // The server reads group_id before it accepts the file's bytes, so it goes first.
    body.append('group_id', id);
    body.append('file', file);
    return api.uploadGroupAvatar(body, { loading: true, quiet: true });
  },
};

// Another account signing in on this device must not see the last one's groups.
sessionStore.subscribe((s, prev) => {
  if (s.user?.user_id !== prev.user?.user_id) groups.forget();
});

export function useGroupState<T>(selector: (s: GroupState) => T): T {
  return useStore(groupStore, selector);
}

/** A group's entry, loaded on first use; undefined until the load starts. */
export function useGroup(id: string | null): GroupEntry | undefined {
  useEffect(() => {
    if (id) groups.ensure(id);
  }, [id]);
  return useGroupState((s) => (id ? s.groups[id] : undefined));
}

/** My role in a group: 0 while unknown or after I was removed. */
export function myRole(entry: GroupEntry | undefined): GroupRole {
  if (!entry?.info || entry.status === 'removed' || entry.status === 'disbanded') return 0;
  return entry.info.isJoin;
}

/** Whether I may speak in a group at `now`, for the chat input; null while the group loads. */
export function groupSpeakState(entry: GroupEntry | undefined, now: number): SpeakState | null {
  if (!entry || entry.status === 'loading' || entry.status === 'error') return null;
  if (entry.status !== 'ready') return { canSpeak: false, reason: 'notMember' };
  return speakState(entry.info, now);
}

/**
 * Whether I may send in a group, and if not why (muted until T, only admins, only the owner,
 * no longer a member); null while the group loads. Changes by itself when a mute ends.
 */
export function useGroupSpeakState(id: string | null): SpeakState | null {
  const entry = useGroup(id);
  const now = useNowUntil([entry?.info?.no_speak_until ?? 0]);
  return groupSpeakState(entry, now);
}
