import { CallCodes, messagePreview, type Message, memberRole, GroupRoles, TOAST_SERVER_MS } from '@sparrow/protocol';
import { api, request } from '../api';
import type { SocketEvent, SocketState } from '../api/socket';
import { callSignalOf, isFinalCode } from '../call/signal';
import { feedback } from '../components/feedback';
import { calls, showCallOutcome } from '../call/store';
import { translate } from '../i18n';
import { contactIdOf, contactKey, conversationKeyOf, type ContactKey } from '../lib/conversation-list';
import { ringForMessage } from '../lib/notify';
import { storage } from '../lib/storage';
import { navigateTo } from '../nav/navigation';
import { callPath } from '../nav/paths';
import { forcedOffline, sessionInvalid } from '../session/account';
import { notifyMessage } from '../session/notifications';
import { config } from '../stores/config';
import { contacts, contactsStore } from '../stores/contacts';
import { groups } from '../stores/group';
import { blocks } from '../stores/blocks';
import { favorites } from '../stores/favorites';
import { dataExports } from '../stores/data-export';
import { moments } from '../stores/moments';
import { people } from '../stores/people';
import { presence } from '../stores/presence';
import { receipts } from '../stores/read-receipts';
import { sessionStore } from '../stores/session';
import { typing } from '../stores/typing';
import { catchUp } from './catch-up';
import { applyChain } from './chains';
import { applyPoll } from './polls';
import { appEvents } from './events';
import { withEdit, withReaction } from './message-updates';
import {
  deliver,
  flushOutbox,
  forEachEngine,
  forgetStored,
  isGroupOf,
  keepChange,
  liveEngine,
  openConversation,
} from './registry';

const me = () => sessionStore.getState().user?.user_id ?? null;

/**
 * The server answers the ping sent on open and then the bind, each with a pong. Catching up on
 * both closes the window between the bind and the `sync` query: what was committed before the
 * bind comes with `sync`, what comes after it is pushed.
 */
let pongsAfterInit = 0;
let wasOpen = false;

function onState(state: SocketState): void {
  config.setSocket(state);
  if (state !== 'open') return;
  // After a reconnect pushes may have been missed, so the groups on screen are fetched again.
  if (wasOpen) {
    groups.refreshAll();
    // Relayed call signals are not stored: a live call restarts ICE instead of waiting for them.
    calls.onReconnect();
    // Reactions and edits travel as deltas: an open chat reads its newest page again.
    forEachEngine((engine) => void engine.refreshNewest());
    receipts.refresh();
  }
  wasOpen = true;
}

function onMessage(msg: Message): void {
  const user = me();
  if (user === null) return;
  if (msg.fromUser.id === 'system') {
    const event = msg.extends.event;
    if (msg.type === 'event' && msg.extends.event === 'signInNewDevice') {
      // A sign-in from a new device: said at once, with where and when; 登录设备 lists it.
      const line = msg.extends;
      void import('../components/devices/new-device')
        .then((m) => feedback.toast(m.newDeviceText(line), TOAST_SERVER_MS))
        .catch(() => feedback.toast(msg.content, TOAST_SERVER_MS));
      return;
    }
    if (event === 'reportClosed' || event === 'reportWarning') {
      // A report's outcome or a warning: said at once, and kept under 我的投诉.
      feedback.toast(msg.content, TOAST_SERVER_MS);
      appEvents.emit('reportNotice', msg.content);
      return;
    }
    contacts.applySystemNotice(msg);
    appEvents.emit('friendRequests', undefined);
    if (msg.extends.event === 'friendRequest') ringForMessage();
    return;
  }
  const key = conversationKeyOf(msg, user);
  const mine = msg.fromUser.id === user;
  const onScreen = openConversation() === key && document.visibilityState === 'visible';
  if (!mine) typing.spoke(key, msg.fromUser.id);
  deliver([msg]);
  const row = contacts.applyMessage(msg, { openKey: onScreen ? key : null });
  if (mine) return;
  if (onScreen) liveEngine(key)?.readAll();
  if (msg.type !== 'event' && row?.is_notice !== 0) ringForMessage();
  void notifyMessage(msg, row);
}

/**
 * A call's signal (docs/protocol.md §5). `calling` puts the call in its chat and rings, opening the call
 * screen over whatever page is shown; while I am in another call the caller hears busy (907). An
 * end replaces the call's bubble with its summary; every signal then goes to the call itself.
 */
function onCall(msg: Message): void {
  const user = me();
  const signal = callSignalOf(msg);
  if (user === null || !signal) return;
  if (signal.event === 'calling') {
    const key = conversationKeyOf(msg, user);
    const onScreen = openConversation() === key && document.visibilityState === 'visible';
    const unreadBefore = contacts.get(key)?.unread ?? 0;
    deliver([msg]);
    const row = contacts.applyMessage(msg, { openKey: onScreen ? key : null });
    if (onScreen) liveEngine(key)?.readAll();
    // A call I placed from another device shows in the chat and rings nowhere here.
    if (signal.fromId === user) return;
    const rung = calls.ring(msg, signal, (row?.unread ?? 0) > unreadBefore);
    if (rung === 'busy') {
      const busy = {
        id: signal.id,
        toContactId: signal.fromId,
        type: signal.type,
        event: 'busy',
        code: CallCodes.Busy,
      } as const;
      api.sendToMsg(busy, { silent: true }).catch(() => undefined);
    } else if (rung === 'ringing') {
      void notifyMessage(msg, row);
      const from = msg.fromUser;
      const name = from.displayName || from.realname;
      navigateTo(
        callPath({ msg_id: signal.id, type: signal.type, status: 3, id: signal.fromId, name, avatar: from.avatar }),
      );
    }
    return;
  }
  if (isFinalCode(signal.code) && ['hangup', 'busy', 'otherOpt'].includes(signal.event)) showCallOutcome(msg);
  calls.onSignal(signal);
}

/** A message deleted for everyone may have been its conversation's last: the preview moves to the newest left. */
async function refreshPreview(key: ContactKey): Promise<void> {
  try {
    const { data } = await request(
      'getMessageList',
      { toContactId: contactIdOf(key), is_group: isGroupOf(key), limit: 1 },
      { silent: true },
    );
    const last = data.at(-1);
    contacts.patch(key, last ? { lastContent: messagePreview(last, translate), type: last.type } : { lastContent: '' });
  } catch {
    // The next catch-up brings the list fresh.
  }
}

/**
 * Routes each event of the push channel (docs/protocol.md §4), as the socket parsed it, to the stores and
 * the open conversations. The switch names every event: a new one in protocol's union does not
 * compile until it is routed here.
 */
export function dispatch(event: SocketEvent): void {
  switch (event.type) {
    case 'state':
      onState(event.data);
      break;
    case 'error':
      // A failed connect shows through `state`; the socket retries by itself.
      break;
    case 'init':
      storage.set('client_id', event.data.client_id);
      pongsAfterInit = 2;
      break;
    case 'pong':
      config.setMultiport(event.data.multiport);
      if (pongsAfterInit > 0) {
        pongsAfterInit -= 1;
        void catchUp.request();
        // Bound: what I sent while the connection was down goes now, in the order sent.
        if (pongsAfterInit === 0) void flushOutbox();
      }
      break;
    case 'updateConfig':
      config.merge(event.data);
      break;
    case 'isOnline':
      presence.set(event.data.id, event.data.is_online);
      contacts.setOnline(event.data.id, event.data.is_online);
      break;
    case 'offline':
      forcedOffline(event.data.reason);
      break;
    case 'sessionEnded':
      sessionInvalid();
      break;
    case 'simple':
    case 'group':
      onMessage(event.data);
      break;
    case 'userStatus':
      contacts.setStatus(event.data);
      break;
    case 'appendContact':
      contacts.upsert(event.data);
      appEvents.emit('friendRequests', undefined);
      break;
    case 'removeGroup':
      groups.apply(event);
      contacts.remove(contactKey(event.data.group_id));
      break;
    case 'disbandGroup':
      // The chat stays, read-only, until I delete it.
      groups.apply(event);
      contacts.patch(contactKey(event.data.group_id), { disbanded: 1 });
      break;
    case 'setChatTop':
      contacts.patch(contactKey(event.data.id), { is_top: event.data.is_top });
      break;
    case 'setIsNotice':
      contacts.patch(contactKey(event.data.id), { is_notice: event.data.is_notice });
      break;
    case 'addGroup':
      groups.apply(event);
      contacts.upsert(event.data);
      break;
    case 'addGroupUser': {
      groups.apply(event);
      const { group_id, user_ids, avatar } = event.data;
      const row = contacts.get(group_id);
      if (row)
        contacts.patch(group_id, {
          member_count: (row.member_count ?? 0) + user_ids.length,
          ...(avatar && { avatar }),
        });
      break;
    }
    case 'undoMessage': {
      forEachEngine((engine) => engine.applyUndo(event.data));
      contacts.applyUndo(event.data);
      const user = me();
      if (user !== null) keepChange(conversationKeyOf(event.data, user), event.data.msg_id, () => event.data);
      break;
    }
    case 'chain':
      applyChain(event.data);
      break;
    case 'poll':
      applyPoll(event.data);
      break;
    case 'reaction': {
      const delta = event.data;
      liveEngine(contactKey(delta.toContactId))?.applyReaction(delta);
      const user = me();
      if (user !== null) keepChange(contactKey(delta.toContactId), delta.msg_id, (m) => withReaction(m, delta, user));
      break;
    }
    case 'editMessage': {
      const delta = event.data;
      liveEngine(contactKey(delta.toContactId))?.applyEdit(delta);
      contacts.applyEdit(contactKey(delta.toContactId), delta);
      keepChange(contactKey(delta.toContactId), delta.msg_id, (m) => withEdit(m, delta));
      break;
    }
    case 'delMessage': {
      const key = contactKey(event.data.toContactId);
      forEachEngine((engine) => engine.remove(event.data.msg_id));
      forgetStored(key, event.data.msg_id);
      contacts.noteDeleted(key);
      void refreshPreview(key);
      break;
    }
    case 'isRead':
      liveEngine(contactKey(event.data.toContactId))?.markPeerRead(event.data.msg_id);
      break;
    case 'readAll':
      contacts.markRead(contactKey(event.data.toContactId));
      break;
    case 'adminNotice':
      contacts.setNotice(event.data);
      break;
    case 'removeUser': {
      groups.apply(event);
      const { group_id, user_id } = event.data;
      if (user_id === me()) contacts.remove(group_id);
      else {
        const row = contacts.get(group_id);
        if (row) contacts.patch(group_id, { member_count: Math.max(0, (row.member_count ?? 1) - 1) });
      }
      break;
    }
    case 'setNoSpeak':
      groups.apply(event);
      break;
    case 'editGroupName':
      groups.apply(event);
      contacts.patch(event.data.id, { displayName: event.data.displayName });
      break;
    case 'setNotice':
      groups.apply(event);
      contacts.patch(event.data.group_id, { notice: event.data.notice });
      break;
    case 'groupSetting':
      groups.apply(event);
      contacts.patch(event.data.group_id, { setting: { ...event.data.setting } });
      break;
    case 'groupAvatar':
      groups.apply(event);
      contacts.patch(event.data.group_id, { avatar: event.data.avatar });
      break;
    case 'profileChanged': {
      // A member of my groups changed their name or picture: open chats, member lists and a chat
      // of ours follow. A friend's own row (their remark kept) comes as appendContact.
      const { user_id, realname, avatar } = event.data;
      people.changed(event.data);
      groups.applyProfile(event.data);
      const row = contacts.get(contactKey(user_id));
      if (row && row.friend_id === undefined)
        contacts.patch(contactKey(user_id), { avatar, realname, displayName: realname });
      break;
    }
    case 'setManager':
      groups.apply(event);
      if (event.data.user_id === me())
        contacts.patch(event.data.group_id, { role: memberRole(event.data.role ?? GroupRoles.Member) });
      break;
    case 'changeOwner': {
      groups.apply(event);
      const { group_id, user_id } = event.data;
      const row = contactsStore.getState().rows[group_id];
      if (user_id === me()) contacts.patch(group_id, { role: 1, owner_id: user_id });
      else if (row)
        contacts.patch(group_id, {
          owner_id: user_id,
          ...(row.role === GroupRoles.Owner && { role: GroupRoles.Admin }),
        });
      break;
    }
    case 'webrtc':
      onCall(event.data);
      break;
    case 'clearMessage':
      contacts.patch(event.data.group_id, { lastContent: '' });
      forgetStored(event.data.group_id, null);
      void liveEngine(event.data.group_id)?.reload();
      break;
    case 'moments':
      moments.onPush(event.data);
      break;
    case 'favorite':
      favorites.onPush(event.data);
      break;
    case 'dataExport':
      dataExports.onPush(event.data);
      break;
    case 'block':
      blocks.onPush(event.data);
      break;
    case 'readReceipt':
      receipts.onPush(event.data);
      break;
    case 'typing':
      typing.onPush(event.data);
      break;
    case 'held':
      if (event.data.kind === 'message')
        liveEngine(contactKey(event.data.toContactId))?.heldDecided(event.data.id, event.data.decision);
      break;
    default: {
      const unrouted: never = event;
      console.warn('socket: no route for', unrouted);
    }
  }
}
