import {
  parseRaingadFrame,
  PICTURES,
  translate,
  type Contact,
  type Message,
  type MessageOf,
  type PushFrame,
} from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import type { Connection } from './hub';
import { kindOf, present } from './present';

/** Seconds, as push frames carry it. */
const TIME = 1_700_000_000;
/** The socket a frame is presented for. */
const CLIENT = '9a0f1c2e-5b7d-4e3a-8c61-2f4b6d8e0a13';

const ANN = { id: 1, user_id: 1, realname: 'Ann', displayName: 'Ann', avatar: '/avatar/1.png' } as const;
const SYSTEM = { id: 'system', user_id: 'system', realname: 'System', displayName: 'System', avatar: '' } as const;

/** The conversation row a push carries for its receiver. */
const ROW: Contact = {
  id: 1,
  displayName: 'Ann',
  avatar: '/avatar/1.png',
  lastContent: 'hello',
  lastSendTime: TIME * 1000,
  type: 'text',
  is_group: 0,
  unread: 1,
  is_top: 0,
  is_notice: 1,
  is_at: 0,
  is_online: 1,
  index: 'A',
  notice: '',
  setting: {},
};

function text(msgId: number, overrides: Partial<MessageOf<'text'>> = {}): MessageOf<'text'> {
  return {
    id: `00000000-0000-4000-8000-${String(msgId).padStart(12, '0')}`,
    msg_id: msgId,
    type: 'text',
    content: `message ${msgId}`,
    sendTime: TIME * 1000 + msgId,
    toContactId: 2,
    is_group: 0,
    status: 'succeed',
    is_read: 1,
    at: [],
    pid: 0,
    fromUser: ANN,
    extends: {},
    ...overrides,
  };
}

function signal(event: string): PushFrame {
  return {
    type: 'webrtc',
    time: TIME,
    data: {
      id: 'call-1',
      msg_id: 0,
      type: 'webrtc',
      content: '',
      sendTime: TIME * 1000,
      toContactId: 2,
      is_group: 0,
      status: 'succeed',
      is_read: 0,
      at: [],
      pid: 0,
      fromUser: ANN,
      extends: { type: 1, status: 3, event, code: 904, callTime: 0, isMobile: false, camera: 0 },
    },
  };
}

const offline: PushFrame = { type: 'offline', time: TIME, data: { id: 2, client_id: '', isMobile: false } };
const readAll: PushFrame = { type: 'readAll', time: TIME, data: { toContactId: 1, msg_id: 41, is_group: 0 } };
const isRead: PushFrame = { type: 'isRead', time: TIME, data: { toContactId: 2, msg_id: 41 } };
const adminNotice: PushFrame = {
  type: 'adminNotice',
  time: TIME,
  data: { id: 9, title: 'Maintenance tonight', notice: 'The service is down from 2 to 3.', create_time: TIME * 1000 },
};
const disbandGroup: PushFrame = { type: 'disbandGroup', time: TIME, data: { group_id: 'group-5' } };
const camera = signal('camera');
const offer = signal('offer');
/** A friend-request notice: a `simple` from `system`, with the `system` row it would open. */
const systemNotice = text(42, {
  fromUser: SYSTEM,
  toContactId: 'system',
  is_group: 2,
  contactInfo: { ...ROW, id: 'system' },
});
const fromSystem: PushFrame = { type: 'simple', time: TIME, data: systemNotice };
const fromAnn: PushFrame = { type: 'simple', time: TIME, data: text(43, { contactInfo: ROW }) };

/** Pushes neither kind of socket reads otherwise. */
const ordinary: PushFrame[] = [
  { type: 'isOnline', time: TIME, data: { id: 3, is_online: 1 } },
  { type: 'group', time: TIME, data: text(44, { toContactId: 'group-5', is_group: 1 }) },
  { type: 'appendContact', time: TIME, data: ROW },
  { type: 'removeGroup', time: TIME, data: { group_id: 'group-5' } },
  { type: 'setNotice', time: TIME, data: { group_id: 'group-5', notice: 'Be nice.' } },
  { type: 'moments', time: TIME, data: { type: 'like', post_id: 8, user_id: 3 } },
  { type: 'delMessage', time: TIME, data: { id: 'm-1', msg_id: 40, toContactId: 2 } },
];

/** Every push Raingad clients are sent otherwise: a Sparrow socket reads each as published. */
const replacedForRaingad: PushFrame[] = [readAll, isRead, adminNotice, disbandGroup, camera, fromSystem];

describe('kindOf', () => {
  // kindOf reads `boundOverHttp` alone: the rest of a connection would be noise here.
  const conn = (boundOverHttp: boolean | undefined) => ({ clientId: CLIENT, boundOverHttp }) as Connection;

  it('names a socket joined over HTTP bindUid a Raingad socket', () => {
    expect(kindOf(conn(true))).toBe('raingad');
  });

  it("names any other socket Sparrow's, whether boundOverHttp is false or unset", () => {
    expect(kindOf(conn(false))).toBe('sparrow');
    expect(kindOf(conn(undefined))).toBe('sparrow');
  });
});

describe('present for a Sparrow socket', () => {
  it('names the socket it is sent to in offline, keeping the rest of the frame', () => {
    const takenOver: PushFrame = { ...offline, data: { ...offline.data, isMobile: true, reason: 'password' } };
    expect(present('sparrow', takenOver, undefined, CLIENT)).toEqual({
      type: 'offline',
      time: TIME,
      data: { id: 2, client_id: CLIENT, isMobile: true, reason: 'password' },
    });
  });

  it('leaves the published offline frame as it was, for the next socket it is presented for', () => {
    present('sparrow', offline, undefined, CLIENT);
    expect(offline.data).toEqual({ id: 2, client_id: '', isMobile: false });
  });

  it.each(replacedForRaingad.map((frame) => [frame.type, frame] as const))(
    'passes %s through as published, extras or not',
    (_type, frame) => {
      expect(present('sparrow', frame, undefined, CLIENT)).toBe(frame);
      expect(present('sparrow', frame, { read: [text(41)] }, CLIENT)).toBe(frame);
    },
  );

  it('passes through a signal that is not camera and a simple from a user', () => {
    expect(present('sparrow', offer, undefined, CLIENT)).toBe(offer);
    expect(present('sparrow', fromAnn, undefined, CLIENT)).toBe(fromAnn);
  });

  it.each(ordinary.map((frame) => [frame.type, frame] as const))('passes %s through as is', (_type, frame) => {
    expect(present('sparrow', frame, undefined, CLIENT)).toBe(frame);
  });
});

describe('present for a Raingad socket', () => {
  it('keeps client_id in offline as published, not the socket it is sent to', () => {
    const tookOver: PushFrame = { ...offline, data: { ...offline.data, client_id: 'the-socket-that-took-over' } };
    expect(present('raingad', offline, undefined, CLIENT)).toBe(offline);
    expect(present('raingad', tookOver, undefined, CLIENT)).toBe(tookOver);
  });

  it('sends nothing for readAll', () => {
    expect(present('raingad', readAll, undefined, CLIENT)).toBeNull();
    expect(present('raingad', readAll, { read: [text(41)] }, CLIENT)).toBeNull();
  });

  it('sends for isRead the messages the extras list, at the time of the push', () => {
    const read: Message[] = [text(40), text(41)];
    const shown = present('raingad', isRead, { read }, CLIENT);
    expect(shown).toEqual({ type: 'isRead', time: TIME, data: read });
    expect(parseRaingadFrame(shown)).not.toBeNull();
  });

  it('sends nothing for isRead when the extras list no message', () => {
    expect(present('raingad', isRead, undefined, CLIENT)).toBeNull();
    expect(present('raingad', isRead, {}, CLIENT)).toBeNull();
    expect(present('raingad', isRead, { read: undefined }, CLIENT)).toBeNull();
    expect(present('raingad', isRead, { read: [] }, CLIENT)).toBeNull();
  });

  it('sends an announcement as a simple text to admin_notice, is_group 2, with extends {title, notice}', () => {
    const shown = present('raingad', adminNotice, undefined, CLIENT);
    expect(shown).toEqual({
      type: 'simple',
      time: TIME,
      data: {
        id: 'admin_notice-9',
        msg_id: 9,
        type: 'text',
        content: 'Maintenance tonight',
        sendTime: TIME * 1000,
        toContactId: 'admin_notice',
        toUser: 'admin_notice',
        is_group: 2,
        status: 'succeed',
        is_read: 1,
        at: [],
        pid: 0,
        extends: { title: 'Maintenance tonight', notice: 'The service is down from 2 to 3.' },
        fromUser: {
          id: 'admin_notice',
          displayName: translate('zh-Hans', 'contact.adminNotice'),
          avatar: PICTURES.notice,
        },
      },
    });
    expect(parseRaingadFrame(shown)).toEqual(shown);
  });

  it('sends removeGroup with only the group_id for disbandGroup', () => {
    expect(present('raingad', disbandGroup, undefined, CLIENT)).toStrictEqual({
      type: 'removeGroup',
      time: TIME,
      data: { group_id: 'group-5' },
    });
  });

  it('sends nothing for favorite, and a Sparrow socket the frame as published: those clients keep no favourites', () => {
    const favorite: PushFrame = { type: 'favorite', time: TIME, data: { action: 'add', ids: [3] } };
    expect(present('raingad', favorite, undefined, CLIENT)).toBeNull();
    expect(present('sparrow', favorite, undefined, CLIENT)).toBe(favorite);
  });

  it('sends nothing for block, and a Sparrow socket the frame as published: those clients keep no block list', () => {
    const block: PushFrame = { type: 'block', time: TIME, data: { user_id: 3, blocked: 1 } };
    expect(present('raingad', block, undefined, CLIENT)).toBeNull();
    expect(present('sparrow', block, undefined, CLIENT)).toBe(block);
  });

  it('sends nothing for a reaction, and a Sparrow socket the delta as published: those clients show no reactions', () => {
    const reaction: PushFrame = {
      type: 'reaction',
      time: TIME,
      data: { toContactId: 'group-5', msg_id: 41, emoji: '👍', user_id: 7, on: 1, count: 3 },
    };
    expect(present('raingad', reaction, undefined, CLIENT)).toBeNull();
    expect(present('sparrow', reaction, undefined, CLIENT)).toBe(reaction);
  });

  it("sends an edited text as the original's updateMessage {id, type: 'text', content}", () => {
    const edited: PushFrame = {
      type: 'editMessage',
      time: TIME,
      data: {
        toContactId: 7,
        msg_id: 41,
        id: 'uuid-41',
        content: 'fixed',
        edited: 1_700_000_000_000,
        sendTime: 1_699_000_000_000,
      },
    };
    expect(present('raingad', edited, undefined, CLIENT)).toStrictEqual({
      type: 'updateMessage',
      time: TIME,
      data: { id: 'uuid-41', type: 'text', content: 'fixed' },
    });
    expect(present('sparrow', edited, undefined, CLIENT)).toBe(edited);
  });

  it('sends nothing for a camera signal, and every other signal unchanged', () => {
    expect(present('raingad', camera, undefined, CLIENT)).toBeNull();
    expect(present('raingad', offer, undefined, CLIENT)).toBe(offer);
    const hangup = signal('hangup');
    expect(present('raingad', hangup, undefined, CLIENT)).toBe(hangup);
  });

  it('sends a simple from system without its contactInfo, and leaves the published frame whole', () => {
    const shown = present('raingad', fromSystem, undefined, CLIENT);
    const { contactInfo: _row, ...message } = systemNotice;
    expect(shown).toStrictEqual({ type: 'simple', time: TIME, data: message });
    expect(shown?.data).not.toHaveProperty('contactInfo');
    expect(fromSystem.data).toHaveProperty('contactInfo', { ...ROW, id: 'system' });
  });

  it('sends a simple from a user unchanged, with its contactInfo', () => {
    const shown = present('raingad', fromAnn, undefined, CLIENT);
    expect(shown).toBe(fromAnn);
    expect(shown?.data).toHaveProperty('contactInfo', ROW);
  });

  it.each(ordinary.map((frame) => [frame.type, frame] as const))('passes %s through as is', (_type, frame) => {
    expect(present('raingad', frame, undefined, CLIENT)).toBe(frame);
    expect(present('raingad', frame, { read: [text(41)] }, CLIENT)).toBe(frame);
  });
});
