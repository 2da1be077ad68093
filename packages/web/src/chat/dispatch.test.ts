import { beforeEach, describe, expect, it } from 'vitest';
import { configStore } from '../stores/config';
import { contactsStore } from '../stores/contacts';
import { presenceStore } from '../stores/presence';
import { sessionStore } from '../stores/session';
import { contactRow } from '../test/fixtures';
import { dispatch } from './dispatch';

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

  it('removal from a group takes it off the list', () => {
    dispatch({ type: 'removeUser', data: { group_id: 'group-1', user_id: 1 } });
    expect(contactsStore.getState().rows['group-1']).toBeUndefined();
  });
});
