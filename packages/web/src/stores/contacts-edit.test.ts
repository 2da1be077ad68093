import { beforeEach, expect, it } from 'vitest';
import { contactRow } from '../test/fixtures';
import { contacts, contactsStore } from './contacts';

const row = () => contactsStore.getState().rows['2']!;

beforeEach(() => {
  contactsStore.setState({
    rows: { '2': contactRow(2, { type: 'text', lastContent: 'three o’clock', lastSendTime: 5 }) },
    pending: 0,
  });
});

it('an edit of the last message puts its new text in the preview; an edit of an older one leaves it', () => {
  contacts.applyEdit('2', { sendTime: 4, content: 'older, edited' });
  expect(row().lastContent).toBe('three o’clock');
  contacts.applyEdit('2', { sendTime: 5, content: 'four o’clock' });
  expect(row().lastContent).toBe('four o’clock');
});
