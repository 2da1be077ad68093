import type { Contact, Message } from '@sparrow/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { msg } from '../chat/test-messages';
import { contacts, contactsStore } from './contacts';
import { contactRow } from '../test/fixtures';
import { sessionStore } from './session';

const contact = (id: Contact['id'], over: Partial<Contact> = {}) => contactRow(id, { type: '', ...over });

const row = (key: string) => contactsStore.getState().rows[key]!;

beforeEach(() => {
  sessionStore.setState({ token: 'bearer t', user: { user_id: 1 } as never });
  contactsStore.setState({
    rows: {
      '2': contact(2, { lastContent: 'old', lastSendTime: 5, unread: 1 }),
      'group-1': contact('group-1', { is_notice: 0, role: 1 }),
    },
    pending: 0,
  });
});

describe('contacts store', () => {
  it('a status push keeps the newest version; last_seen null clears the time and shows them offline', () => {
    const status = (text: string) => ({ text, emoji: '', until: null });
    contacts.setStatus({ user_id: 2, status: status('new'), version: 20 });
    contacts.setStatus({ user_id: 2, status: status('old'), version: 10 });
    expect(row('2').status?.text).toBe('new');
    contacts.setStatus({ user_id: 2, status: status('new'), version: 20, last_seen: 60_000 });
    expect(row('2').last_seen).toBe(60_000);
    contacts.patch('2', { is_online: 1 });
    contacts.setStatus({ user_id: 2, status: status('new'), last_seen: null });
    expect([row('2').last_seen, row('2').is_online, row('2').status?.text]).toEqual([undefined, 0, 'new']);
  });

  it('a message from someone moves the preview and time on and counts as unread', () => {
    const m = msg(10, { from: 2, to: 1, content: 'hello' });
    contacts.applyMessage(m, { openKey: null });
    expect(row('2')).toMatchObject({ lastContent: 'hello', lastSendTime: m.sendTime, unread: 2, is_at: 0 });
  });

  it('my own message, or one in the open conversation, leaves nothing unread', () => {
    contacts.applyMessage(msg(11, { from: 1, to: 2, content: 'mine' }), { openKey: null });
    expect(row('2')).toMatchObject({ lastContent: 'mine', unread: 0 });
    contacts.applyMessage(msg(12, { from: 2, to: 1 }), { openKey: '2' });
    expect(row('2').unread).toBe(0);
  });

  it('a mention of me raises is_at; the role of the group row is kept', () => {
    contacts.applyMessage(msg(13, { from: 3, group: true, at: [1] }), { openKey: null });
    contacts.applyMessage(msg(14, { from: 3, group: true, at: [0] }), { openKey: null });
    expect(row('group-1')).toMatchObject({ unread: 2, is_at: 2, role: 1, is_notice: 0 });
  });

  it('a group’s system line counts as no unread, and leaves a muted group where it was', () => {
    const line = (msgId: number): Message => ({
      ...msg(msgId, { from: 3, group: true }),
      type: 'event',
      content: 'user 3 invited user 4',
      extends: { event: 'invite', user_id: 3, name: 'user 3', user_ids: [4], names: ['user 4'] },
    });
    contacts.applyMessage(line(16), { openKey: null });
    expect(row('group-1')).toMatchObject({ unread: 0, lastSendTime: 0, is_notice: 0 });
    contacts.patch('group-1', { is_notice: 1 });
    contacts.applyMessage(line(17), { openKey: null });
    expect(row('group-1')).toMatchObject({ unread: 0, lastContent: 'user 3 invited user 4', type: 'event' });
    expect(row('group-1').lastSendTime).toBe(line(17).sendTime);
    contacts.applyMessage(msg(18, { from: 3, group: true }), { openKey: null });
    expect(row('group-1').unread).toBe(1);
  });

  it('a conversation I did not have comes from the message’s contactInfo', () => {
    const m = {
      ...msg(15, { from: 7, to: 1, content: 'hi there' }),
      contactInfo: contact(7, { displayName: 'New person', unread: 1 }),
    };
    contacts.applyMessage(m, { openKey: null });
    expect(row('7')).toMatchObject({ displayName: 'New person', lastContent: 'hi there', unread: 1 });
  });

  it('a pushed contact changes who they are, never the conversation state', () => {
    contacts.patch('2', { is_top: 1, is_notice: 0 });
    contacts.upsert(contact(2, { displayName: 'Remark', is_top: 0, is_notice: 1, unread: 0 }));
    expect(row('2')).toMatchObject({ displayName: 'Remark', is_top: 1, is_notice: 0, unread: 1, lastContent: 'old' });
  });

  it('friend-request notices set the pending count; reading clears unread and mentions', () => {
    contacts.applySystemNotice({
      ...msg(0, { from: 'system' }),
      contactInfo: contact('system', { is_group: 2, unread: 3 }),
    });
    expect(contactsStore.getState().pending).toBe(3);
    contacts.patch('group-1', { unread: 4, is_at: 1 });
    contacts.markRead('group-1');
    expect(row('group-1')).toMatchObject({ unread: 0, is_at: 0 });
  });
});
