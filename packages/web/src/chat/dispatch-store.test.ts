import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionEnded } from '../session/account';
import { sessionStore } from '../stores/session';
import { dispatch } from './dispatch';
import { localStore } from './local-store';
import { deliver } from './registry';
import type { OutboxRecord } from './outbox';
import { msg, withdrawn } from './test-messages';

vi.mock(import('../nav/navigation'), async (original) => ({ ...(await original()), navigateTo: vi.fn() }));
vi.mock(import('../nav/return-to'), async (original) => ({
  ...(await original()),
  currentPath: () => '/pages/index/index',
}));
vi.mock(import('../components/feedback'), async (original) => {
  const actual = await original();
  return { ...actual, feedback: { ...actual.feedback, alert: vi.fn(async () => undefined) } };
});

let me = 100;
/** The texts of a conversation as the device keeps them. */
const kept = async (key: string) =>
  (await localStore.page(me, key, { limit: 50 })).map((m) => [m.msg_id, m.type, m.content, m.reactions?.length ?? 0]);

beforeEach(() => {
  me++;
  sessionStore.setState({ token: 'bearer t', user: { user_id: me } as never });
});

describe('what the server took back reaches the device’s copy', () => {
  it('messages delivered are kept; a withdrawal, an edit, a reaction and a deletion change the copy', async () => {
    deliver([msg(1, { to: me }), msg(2, { to: me }), msg(3, { to: me }), msg(4, { to: me })]);
    await vi.waitFor(async () => expect(await kept('2')).toHaveLength(4));

    dispatch({ type: 'undoMessage', data: withdrawn(1, { to: me }) });
    dispatch({
      type: 'editMessage',
      data: { toContactId: 2, msg_id: 2, id: 'uuid-2', content: '改过了', edited: 5, sendTime: msg(2).sendTime },
    });
    dispatch({ type: 'reaction', data: { toContactId: 2, msg_id: 3, emoji: '👍', user_id: 2, on: 1, count: 1 } });
    dispatch({ type: 'delMessage', data: { id: 'uuid-4', msg_id: 4, toContactId: 2 } });
    await vi.waitFor(async () =>
      expect(await kept('2')).toEqual([
        [1, 'event', 'user 2 withdrew a message', 0],
        [2, 'text', '改过了', 0],
        [3, 'text', 'message 3', 1],
      ]),
    );
  });

  it('a group’s cleared history leaves nothing of it on the device', async () => {
    deliver([msg(10, { group: true, from: 3 }), msg(11, { group: true, from: 3 })]);
    await vi.waitFor(async () => expect(await kept('group-1')).toHaveLength(2));
    dispatch({ type: 'clearMessage', data: { group_id: 'group-1' } });
    await vi.waitFor(async () => expect(await kept('group-1')).toEqual([]));
  });
});

describe('a sign-out the user did not ask for', () => {
  const queued = (user_id: number): OutboxRecord => ({
    user_id,
    key: '2',
    id: `queued-${user_id}`,
    order: 1,
    sendTime: 1,
    body: {
      id: `queued-${user_id}`,
      toContactId: 2,
      is_group: 0,
      type: 'text',
      content: 'x',
      at: [],
      pid: 0,
      extends: {},
    },
  });

  it('forced (an admin disabled the account): nothing of it stays, its messages on their way neither', async () => {
    const user = me;
    deliver([msg(1, { to: user })]);
    await localStore.outbox.put(queued(user));
    await vi.waitFor(async () => expect(await kept('2')).toHaveLength(1));
    dispatch({ type: 'offline', data: { id: user, client_id: 'c', isMobile: false, reason: 'disabled' } });
    await vi.waitFor(async () => expect(await localStore.outbox.list(user)).toEqual([]));
    expect(await localStore.page(user, '2', { limit: 5 })).toEqual([]);
    // A write of the session still on its way adds nothing back.
    await localStore.saveMessages(user, [msg(2, { to: user })]);
    expect(await localStore.page(user, '2', { limit: 5 })).toEqual([]);
  });

  it('the session ended (code -1): the copy goes, the messages on their way wait for the next sign-in', async () => {
    const user = me;
    deliver([msg(1, { to: user })]);
    await localStore.outbox.put(queued(user));
    await vi.waitFor(async () => expect(await kept('2')).toHaveLength(1));
    sessionEnded();
    await vi.waitFor(async () => expect(await localStore.page(user, '2', { limit: 5 })).toEqual([]));
    expect((await localStore.outbox.list(user)).map((r) => r.id)).toEqual([`queued-${user}`]);
  });
});
