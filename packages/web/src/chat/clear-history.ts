import { api, request } from '../api';
import { contactIdOf, type ContactKey } from '../lib/conversation-list';
import { contacts } from '../stores/contacts';
import { isGroupOf, liveEngine, rememberCleared } from './registry';

/**
 * "Clear chat history" for me on this device: the server has no per-user clear for private
 * chats, so the newest msg_id becomes a local floor (messages up to it stay hidden here), and
 * delChat takes the conversation off my list until the next message.
 */
export async function clearHistory(key: ContactKey): Promise<void> {
  const toContactId = contactIdOf(key);
  const is_group = isGroupOf(key);
  const { data } = await request('getMessageList', { toContactId, is_group, limit: 1 }, { loading: true });
  const newest = data.at(-1)?.msg_id ?? 0;
  const upTo = liveEngine(key)?.clearHistory(newest) ?? newest;
  rememberCleared(key, upTo);
  contacts.forgetDeleted(key);
  contacts.patch(key, { lastContent: '', unread: 0, is_at: 0, lastSendTime: 0 });
  await api.delChat({ id: toContactId, is_group }, { quiet: true });
}
