import { messagePreview, type GlobalConfig, type Message } from '@sparrow/protocol';
import { forcedOffline } from '../app/account';
import { catchUp } from '../chat/catch-up';
import { appEvents } from '../chat/events';
import { deliver, forEachEngine, isGroupOf, liveEngine, openConversation } from '../chat/registry';
import { translate } from '../i18n';
import { contactIdOf, contactKey, conversationKeyOf, type ContactKey } from '../lib/conversation-list';
import { ringForMessage } from '../lib/notify';
import { storage } from '../lib/storage';
import { config } from '../stores/config';
import { contacts, contactsStore } from '../stores/contacts';
import { listenToGroupPushes } from '../stores/group';
import { presence } from '../stores/presence';
import { sessionStore } from '../stores/session';
import { request } from '.';
import { SocketClient, socketUrl } from './socket';

/** The app's push channel, feeding the stores; account.ts runs it while someone is signed in. */
export const socket = new SocketClient({
  url: socketUrl(window.location),
  getAuth: () => {
    const { token, user } = sessionStore.getState();
    return token && user ? { user_id: user.user_id, token } : null;
  },
  network: window,
  page: document,
});

const me = () => sessionStore.getState().user?.user_id ?? null;

/**
 * The server answers the ping sent on open and then the bind, each with a pong. Catching up on
 * both closes the window between the bind and the `sync` query: what was committed before the
 * bind comes with `sync`, what comes after it is pushed.
 */
let pongsAfterInit = 0;

socket.on('state', (s) => config.setSocket(s));
socket.on('init', ({ client_id }) => {
  storage.set('client_id', client_id);
  pongsAfterInit = 2;
});
socket.on('pong', ({ multiport }) => {
  config.setMultiport(multiport);
  if (pongsAfterInit > 0) {
    pongsAfterInit -= 1;
    void catchUp.request();
  }
});
socket.on('updateConfig', (data) => config.merge(data as Partial<GlobalConfig>));
socket.on('isOnline', ({ id, is_online }) => {
  presence.set(id, is_online);
  contacts.setOnline(id, is_online);
});
socket.on('offline', () => forcedOffline());
listenToGroupPushes(socket);

function onMessage(msg: Message): void {
  const user = me();
  if (user === null) return;
  if (msg.fromUser.id === 'system') {
    contacts.applySystemNotice(msg);
    appEvents.emit('friendRequests', undefined);
    if (msg.extends.event === 'friendRequest') ringForMessage();
    return;
  }
  const key = conversationKeyOf(msg, user);
  const mine = msg.fromUser.id === user;
  const onScreen = openConversation() === key && document.visibilityState === 'visible';
  deliver([msg]);
  const row = contacts.applyMessage(msg, { openKey: onScreen ? key : null });
  if (mine) return;
  if (onScreen) liveEngine(key)?.readAll();
  if (msg.type !== 'event' && row?.is_notice !== 0) ringForMessage();
}

socket.on('simple', onMessage);
socket.on('group', onMessage);

socket.on('appendContact', (contact) => {
  contacts.upsert(contact);
  appEvents.emit('friendRequests', undefined);
});
socket.on('removeGroup', ({ group_id }) => {
  const key = contactKey(group_id);
  contacts.remove(key);
});
socket.on('setChatTop', ({ id, is_top }) => contacts.patch(contactKey(id), { is_top }));
socket.on('setIsNotice', ({ id, is_notice }) => contacts.patch(contactKey(id), { is_notice }));
socket.on('addGroup', (group) => contacts.upsert(group));
socket.on('addGroupUser', ({ group_id, user_ids, avatar }) => {
  const row = contacts.get(group_id);
  if (row)
    contacts.patch(group_id, { member_count: (row.member_count ?? 0) + user_ids.length, ...(avatar && { avatar }) });
});
socket.on('undoMessage', (msg) => {
  forEachEngine((engine) => engine.applyUndo(msg));
  contacts.applyUndo(msg);
});

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

socket.on('delMessage', ({ msg_id, toContactId }) => {
  forEachEngine((engine) => engine.remove(msg_id));
  contacts.noteDeleted(contactKey(toContactId));
  void refreshPreview(contactKey(toContactId));
});
socket.on('isRead', ({ toContactId, msg_id }) => liveEngine(contactKey(toContactId))?.markPeerRead(msg_id));
socket.on('readAll', ({ toContactId }) => contacts.markRead(contactKey(toContactId)));
socket.on('adminNotice', (notice) => contacts.setNotice(notice));

socket.on('removeUser', ({ group_id, user_id }) => {
  if (user_id === me()) contacts.remove(group_id);
  else {
    const row = contacts.get(group_id);
    if (row) contacts.patch(group_id, { member_count: Math.max(0, (row.member_count ?? 1) - 1) });
  }
});
socket.on('editGroupName', ({ id, displayName }) => {
  contacts.patch(id, { displayName });
});
socket.on('setNotice', ({ group_id, notice }) => {
  contacts.patch(group_id, { notice });
});
socket.on('groupSetting', ({ group_id, setting }) => {
  contacts.patch(group_id, { setting: { ...setting } });
});
socket.on('setManager', ({ group_id, user_id, role }) => {
  if (user_id === me()) contacts.patch(group_id, { role: role === 2 ? 2 : 3 });
});
socket.on('changeOwner', ({ group_id, user_id }) => {
  const row = contactsStore.getState().rows[group_id];
  if (user_id === me()) contacts.patch(group_id, { role: 1, owner_id: user_id });
  else if (row) contacts.patch(group_id, { owner_id: user_id, ...(row.role === 1 && { role: 2 as const }) });
});
socket.on('clearMessage', ({ group_id }) => {
  contacts.patch(group_id, { lastContent: '' });
  void liveEngine(group_id)?.reload();
});
