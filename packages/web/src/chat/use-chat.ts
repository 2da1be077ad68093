import { withdrawal, GroupRoles, needsFriendship } from '@sparrow/protocol';
import type { Contact, GroupInfo, GroupMember, Message } from '@sparrow/protocol';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { api, request } from '../api';
import { speakText } from '../components/group/SpeakBanner';
import { contactIdOf, isGroupKey, SELF_KEY, type ContactKey } from '../lib/conversation-list';
import { useConfig } from '../stores/config';
import { contacts, useContacts } from '../stores/contacts';
import { useGroup as useGroupEntry, useGroupSpeakState, type GroupStatus } from '../stores/group';
import { useSession } from '../stores/session';
import { engineFor, setOpenConversation } from './registry';

export interface GroupState {
  info: GroupInfo | null;
  members: GroupMember[];
  /** I was removed, I left, or the group was disbanded. */
  gone: boolean;
  /** The group was disbanded: its chat stays, to be read, not written to. */
  disbanded: boolean;
}

const GONE: ReadonlySet<GroupStatus> = new Set(['removed', 'left', 'disbanded']);

/** A group's info and members from the group store, which pushes keep current. */
export function useGroup(key: ContactKey | null): GroupState {
  const entry = useGroupEntry(key !== null && isGroupKey(key) ? key : null);
  return useMemo(
    () => ({
      info: entry?.info ?? null,
      members: entry?.members ?? [],
      gone: entry ? GONE.has(entry.status) : false,
      disbanded: entry?.status === 'disbanded',
    }),
    [entry],
  );
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

/**
 * Everything the chat page shows and does for one conversation: the engine's snapshot, the
 * contact, the group's members and rules, whether I may speak, and read marks while it is open.
 * With `focusId` the chat opens at that message (a search hit, a day of the history) instead of
 * the newest.
 */
export function useChat(key: ContactKey, focusId: number | null = null) {
  const { t, i18n } = useTranslation();
  const user = useSession((s) => s.user);
  const engine = useMemo(() => engineFor(key), [key]);
  const snapshot = useSyncExternalStore(engine.subscribe, engine.getSnapshot);
  const contact = useContactRow(key);
  const isGroup = isGroupKey(key);
  // A disbanded group has no info or members to load: its chat is read-only.
  const listedDisbanded = contact?.disbanded === 1;
  const group = useGroup(listedDisbanded ? null : key);
  const disbanded = isGroup && (listedDisbanded || group.disbanded);
  const chatInfo = useConfig((s) => s.config?.chatInfo);
  const runMode = useConfig((s) => s.config?.sysInfo.runMode ?? 2);

  useEffect(() => {
    setOpenConversation(key);
    void (focusId ? engine.openAt(focusId) : engine.openLatest());
    return () => setOpenConversation(null);
  }, [engine, key, focusId]);

  // Everything shown while the page is visible counts as read, once the newest is shown.
  const newest = snapshot.rows.at(-1)?.message.msg_id ?? 0;
  const atNewest = !snapshot.hasNewer;
  useEffect(() => {
    if (snapshot.status !== 'ready' || !atNewest) return;
    const read = () => {
      if (document.visibilityState !== 'visible') return;
      engine.readAll();
      contacts.markRead(key);
    };
    read();
    document.addEventListener('visibilitychange', read);
    return () => document.removeEventListener('visibilitychange', read);
  }, [engine, key, newest, snapshot.status, atNewest]);

  const mentioned = (contact?.is_at ?? 0) > 0;
  useEffect(() => {
    if (isGroup && mentioned) api.readAtMsg({ toContactId: contactIdOf(key) }, { silent: true }).catch(() => {});
  }, [isGroup, mentioned, key]);

  // Why the input is closed: the group's rules and my mute, or a private chat I may not have.
  const speak = useGroupSpeakState(isGroup && !disbanded ? key : null);
  let block: string | null = null;
  /** Closed because we are not (or no longer) friends: the chat offers to ask again. */
  let notFriend = false;
  if (disbanded) block = t('group.gone.disbanded');
  else if (isGroup) block = speakText(speak, i18n.language);
  else if (key !== SELF_KEY) {
    if (chatInfo && chatInfo.simpleChat !== 1) block = t('chat.privateDisabled');
    else if (needsFriendship(runMode) && contact && contact.is_group === 0 && contact.friend_id === undefined) {
      block = t('chat.notFriend');
      notFriend = true;
    }
  }

  const myRole = group.info?.isJoin ?? contact?.role ?? 3;
  return { engine, snapshot, contact, isGroup, group, disbanded, block, notFriend, me: user, myRole, chatInfo };
}

export type ChatModel = ReturnType<typeof useChat>;

/** What the long-press menu offers for a message (docs/protocol.md undoMessage, delMessage). */
export function messagePermissions(
  m: Message,
  opts: {
    me: number;
    isGroup: boolean;
    myRole: number;
    redoTimeS: number;
    dbDelMsg: boolean;
    now: number;
    /** A disbanded group's chat: nothing in it changes any more. */
    readOnly?: boolean;
  },
) {
  const mine = m.fromUser.id === opts.me;
  const content = m.type !== 'event';
  const writable = opts.readOnly !== true;
  const mayWithdraw =
    withdrawal({
      mine,
      inGroup: opts.isGroup,
      myRole: opts.myRole,
      authorRole: m.role ?? GroupRoles.Member,
      age: opts.now - m.sendTime,
      redoTimeS: opts.redoTimeS,
    }) === 'allowed';
  return {
    copy: m.type === 'text',
    forward: content && m.type !== 'webrtc',
    quote: content && writable,
    withdraw: writable && content && mayWithdraw,
    deleteForAll: writable && content && mine && opts.dbDelMsg,
    deleteForMe: true,
  };
}
