import type { Contact, GroupInfo, GroupMember, Message } from '@sparrow/protocol';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { ApiError, api, request } from '../api';
import type { MessageKey } from '../i18n/keys';
import { contactIdOf, isGroupKey, SELF_KEY, type ContactKey } from '../lib/conversation-list';
import { useConfig } from '../stores/config';
import { contacts, useContacts } from '../stores/contacts';
import { useSession } from '../stores/session';
import { appEvents } from './events';
import { engineFor, setOpenConversation } from './registry';

export interface GroupState {
  info: GroupInfo | null;
  members: GroupMember[];
  /** The group answered "not a member" or "no such group". */
  gone: boolean;
}

/** Why the input is closed, in words for t(). */
export interface SpeakBlock {
  key: MessageKey;
  params?: Record<string, string>;
  /** When the block lifts by itself (a personal mute), ms. */
  until?: number;
}

/** Whether I may speak in a group, from its settings and my role and mute (api.md sendMessage). */
export function groupSpeakBlock(
  info: GroupInfo | null,
  gone: boolean,
  now: number,
  clock: (ms: number) => string,
): SpeakBlock | null {
  if (gone || (info && info.isJoin === 0)) return { key: 'group.speak.notMember' };
  if (!info) return null;
  if (info.setting.nospeak === 1 && info.isJoin === 3) return { key: 'group.speak.onlyAdmins' };
  if (info.setting.nospeak === 2 && info.isJoin !== 1) return { key: 'group.speak.onlyOwner' };
  if (info.no_speak_until > now)
    return { key: 'group.speak.muted', params: { time: clock(info.no_speak_until) }, until: info.no_speak_until };
  return null;
}

/** The contact row of a conversation: from the list, or fetched for one not in it. */
function useContactRow(key: ContactKey): Contact | undefined {
  const row = useContacts((s) => s.rows[key]);
  useEffect(() => {
    if (row || !key) return;
    request('getContactInfo', { id: contactIdOf(key) }, { silent: true }).then(
      ({ data }) => contacts.upsert(data),
      () => {
        // The chat still opens; its messages say who it is with.
      },
    );
  }, [key, row]);
  return row;
}

/** A group's info and members, fetched again whenever a push says the group changed. */
export function useGroup(key: ContactKey): GroupState {
  const [state, setState] = useState<GroupState>({ info: null, members: [], gone: false });
  const load = useCallback(async () => {
    if (!isGroupKey(key)) return;
    try {
      const [info, members] = await Promise.all([
        api.groupInfo({ group_id: key }, { silent: true }),
        api.groupUserList({ group_id: key }, { silent: true }),
      ]);
      setState({ info, members, gone: false });
    } catch (e) {
      if (e instanceof ApiError && e.kind === 'server' && (e.code === 403 || e.code === 404)) {
        setState((s) => ({ ...s, gone: true }));
      }
    }
  }, [key]);
  useEffect(() => {
    setState({ info: null, members: [], gone: false });
    void load();
    return appEvents.on('group', ({ group_id }) => {
      if (group_id === key) void load();
    });
  }, [key, load]);
  return state;
}

/** Re-renders when a mute ends, so the input opens by itself. */
function useUntil(until: number | undefined): void {
  const [, tick] = useState(0);
  useEffect(() => {
    if (!until) return;
    const ms = until - Date.now();
    if (ms <= 0) return;
    const timer = setTimeout(() => tick((n) => n + 1), Math.min(ms + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [until]);
}

/**
 * Everything the chat page shows and does for one conversation: the engine's snapshot, the
 * contact, the group's members and rules, whether I may speak, and read marks while it is open.
 */
export function useChat(key: ContactKey, clock: (ms: number) => string) {
  const user = useSession((s) => s.user);
  const engine = useMemo(() => engineFor(key), [key]);
  const snapshot = useSyncExternalStore(engine.subscribe, engine.getSnapshot);
  const contact = useContactRow(key);
  const isGroup = isGroupKey(key);
  const group = useGroup(key);
  const chatInfo = useConfig((s) => s.config?.chatInfo);
  const runMode = useConfig((s) => s.config?.sysInfo.runMode ?? 2);

  useEffect(() => {
    setOpenConversation(key);
    void engine.start();
    return () => setOpenConversation(null);
  }, [engine, key]);

  // Everything shown while the page is visible counts as read.
  const newest = snapshot.rows.at(-1)?.message.msg_id ?? 0;
  useEffect(() => {
    if (snapshot.status !== 'ready') return;
    const read = () => {
      if (document.visibilityState !== 'visible') return;
      engine.readAll();
      contacts.markRead(key);
    };
    read();
    document.addEventListener('visibilitychange', read);
    return () => document.removeEventListener('visibilitychange', read);
  }, [engine, key, newest, snapshot.status]);

  const mentioned = (contact?.is_at ?? 0) > 0;
  useEffect(() => {
    if (isGroup && mentioned) api.readAtMsg({ toContactId: contactIdOf(key) }, { silent: true }).catch(() => {});
  }, [isGroup, mentioned, key]);

  let block: SpeakBlock | null = null;
  if (isGroup) block = groupSpeakBlock(group.info, group.gone, Date.now(), clock);
  else if (key !== SELF_KEY) {
    if (chatInfo && chatInfo.simpleChat !== 1) block = { key: 'chat.privateDisabled' };
    else if (runMode === 2 && contact && contact.is_group === 0 && contact.friend_id === undefined)
      block = { key: 'chat.notFriend' };
  }
  useUntil(block?.until);

  const myRole = group.info?.isJoin ?? contact?.role ?? 3;
  return { engine, snapshot, contact, isGroup, group, block, me: user, myRole, chatInfo };
}

export type ChatModel = ReturnType<typeof useChat>;

/** What the long-press menu offers for a message (api.md undoMessage, delMessage). */
export function messagePermissions(
  m: Message,
  opts: { me: number; isGroup: boolean; myRole: number; redoTimeS: number; dbDelMsg: boolean; now: number },
) {
  const mine = m.fromUser.id === opts.me;
  const content = m.type !== 'event';
  const senderRole = m.role ?? 3;
  const inTime = opts.now - m.sendTime <= opts.redoTimeS * 1000;
  const privileged = opts.isGroup && (opts.myRole === 1 || (opts.myRole === 2 && (mine || senderRole === 3)));
  return {
    copy: m.type === 'text',
    forward: content && m.type !== 'webrtc',
    quote: content,
    withdraw: content && ((mine && inTime) || privileged),
    deleteForAll: content && mine && opts.dbDelMsg,
    deleteForMe: true,
  };
}
