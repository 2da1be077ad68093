import type { MessageOf } from '@sparrow/protocol';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api';
import { calls, callStore } from '../call/store';
import { navigateTo } from '../nav/navigation';
import { configStore } from '../stores/config';
import { contactsStore } from '../stores/contacts';
import { peopleStore, senderName } from '../stores/people';
import { presenceStore } from '../stores/presence';
import { sessionStore } from '../stores/session';
import { contactRow } from '../test/fixtures';
import { dispatch } from './dispatch';

vi.mock(import('../nav/navigation'), async (original) => ({ ...(await original()), navigateTo: vi.fn() }));
vi.mock(import('../api'), async (original) => ({
  ...(await original()),
  api: { sendToMsg: vi.fn(async () => null) } as never,
}));

beforeEach(() => {
  sessionStore.setState({ token: 'bearer t', user: { user_id: 1 } as never });
  contactsStore.setState({
    rows: { '2': contactRow(2, { is_online: 0 }), 'group-1': contactRow('group-1', { role: 3, member_count: 3 }) },
  });
});

describe('dispatch: each push event reaches the store it changes', () => {
  it('connection state and the multiport flag go to the config store', () => {
    dispatch({ type: 'state', data: 'waiting' });
    dispatch({ type: 'pong', data: { multiport: true } });
    expect(configStore.getState()).toMatchObject({ socket: 'waiting', multiport: true });
  });

  it('presence goes to the presence store and the contact row', () => {
    dispatch({ type: 'isOnline', data: { id: 2, is_online: 1 } });
    expect(presenceStore.getState().online[2]).toBe(1);
    expect(contactsStore.getState().rows['2']?.is_online).toBe(1);
  });

  it('pins, mutes and group changes patch the conversation list', () => {
    dispatch({ type: 'setChatTop', data: { id: 2, is_top: 1, is_group: 0 } });
    dispatch({ type: 'setIsNotice', data: { id: 2, is_notice: 0, is_group: 0 } });
    dispatch({ type: 'editGroupName', data: { id: 'group-1', displayName: 'Team', editUserName: 'u2' } });
    dispatch({ type: 'addGroupUser', data: { group_id: 'group-1', user_ids: [5, 6], avatar: '' } });
    dispatch({ type: 'setManager', data: { group_id: 'group-1', user_id: 1, role: 2 } });
    dispatch({ type: 'groupAvatar', data: { group_id: 'group-1', avatar: '/storage/g/new.webp' } });
    const rows = contactsStore.getState().rows;
    expect(rows['2']).toMatchObject({ is_top: 1, is_notice: 0 });
    expect(rows['group-1']).toMatchObject({
      displayName: 'Team',
      member_count: 5,
      role: 2,
      avatar: '/storage/g/new.webp',
    });
  });

  it('a group member’s new name and picture reach open chats and a chat with them who is not a friend', () => {
    contactsStore.setState({
      rows: {
        '2': contactRow(2, { displayName: 'Bea', realname: 'Bea', friend_id: 11, avatar: '' }),
        '5': contactRow(5, { displayName: 'Eve', realname: 'Eve', avatar: '' }),
      },
    });
    dispatch({ type: 'profileChanged', data: { user_id: 5, realname: 'Eva', avatar: '/storage/e.webp' } });
    dispatch({ type: 'profileChanged', data: { user_id: 2, realname: 'Beatrice', avatar: '/storage/b.webp' } });
    const now = peopleStore.getState().byId;
    expect(now[5]).toEqual({ realname: 'Eva', avatar: '/storage/e.webp' });
    expect(contactsStore.getState().rows['5']).toMatchObject({ displayName: 'Eva', avatar: '/storage/e.webp' });
    // A friend's row (my remark on it) follows appendContact, not this.
    expect(contactsStore.getState().rows['2']).toMatchObject({ displayName: 'Bea', avatar: '' });
    // A bubble names the sender by their new name, unless the group knows them by a nickname.
    expect(senderName({ displayName: 'Eve', realname: 'Eve' }, now[5])).toBe('Eva');
    expect(senderName({ displayName: '小夏', realname: 'Eve' }, now[5])).toBe('小夏');
    expect(senderName({ displayName: 'Eve', realname: 'Eve' }, undefined)).toBe('Eve');
  });

  it('removal from a group takes it off the list', () => {
    dispatch({ type: 'removeUser', data: { group_id: 'group-1', user_id: 1 } });
    expect(contactsStore.getState().rows['group-1']).toBeUndefined();
  });

  it('a disbanded group stays on the list, marked read-only', () => {
    dispatch({ type: 'disbandGroup', data: { group_id: 'group-1' } });
    expect(contactsStore.getState().rows['group-1']).toMatchObject({ disbanded: 1, member_count: 3 });
  });
});

/** A `webrtc` push from user `from` about call `id`. */
function callPush(id: string, from: number, ext: Record<string, unknown>): MessageOf<'webrtc'> {
  return {
    id,
    msg_id: 50,
    type: 'webrtc',
    content: '视频通话',
    sendTime: 1,
    toContactId: from === 1 ? 2 : 1,
    is_group: 0,
    status: 'succeed',
    is_read: 0,
    at: [],
    pid: 0,
    fromUser: { id: from, user_id: from, realname: 'Bob', displayName: 'Bob', avatar: '/a.png' },
    extends: { type: 1, status: 3, event: 'calling', code: 901, callTime: 0, isMobile: false, ...ext },
  } as MessageOf<'webrtc'>;
}

describe('dispatch: calls', () => {
  afterAll(() => calls.reset());

  it('a call ringing me opens the call page over any page, with the six query values of docs/product.md §2', () => {
    dispatch({ type: 'webrtc', data: callPush('call-a', 2, {}) });
    expect(navigateTo).toHaveBeenCalledWith(
      '/pages/message/call?msg_id=call-a&type=1&status=3&id=2&name=Bob&avatar=%2Fa.png',
    );
    expect(callStore.getState().call).toMatchObject({ id: 'call-a', role: 'callee', phase: 'incoming' });
    expect(contactsStore.getState().rows['2']?.unread).toBe(1);
  });

  it('another call while one is live is answered busy (907) and opens nothing', () => {
    vi.mocked(navigateTo).mockClear();
    dispatch({ type: 'webrtc', data: callPush('call-b', 3, { type: 0 }) });
    expect(api.sendToMsg).toHaveBeenCalledWith(
      { id: 'call-b', toContactId: 3, type: 0, event: 'busy', code: 907 },
      { silent: true },
    );
    expect(navigateTo).not.toHaveBeenCalled();
    expect(callStore.getState().call?.id).toBe('call-a');
  });

  it("the caller's hangup ends the call ringing me", async () => {
    dispatch({ type: 'webrtc', data: callPush('call-a', 2, { event: 'hangup', code: 902 }) });
    await vi.waitFor(() => expect(callStore.getState().call).toMatchObject({ phase: 'ended', end: 'peerCancelled' }));
  });

  it('a call I placed from another device shows in its chat and does not ring here', () => {
    calls.reset();
    vi.mocked(navigateTo).mockClear();
    dispatch({ type: 'webrtc', data: callPush('call-c', 1, {}) });
    expect(navigateTo).not.toHaveBeenCalled();
    expect(callStore.getState().call).toBeNull();
    expect(contactsStore.getState().rows['2']).toMatchObject({ unread: 0, type: 'webrtc' });
  });
});
