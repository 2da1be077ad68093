import type { Message } from '@sparrow/protocol';

/** Test messages: `msg(5, {from: 2})` is msg_id 5 from user 2 to user 1 in their private chat. */
export function msg(
  msgId: number,
  opts: {
    from?: number | 'system';
    to?: Message['toContactId'];
    id?: string;
    content?: string;
    group?: boolean;
    is_read?: 0 | 1;
    at?: number[];
  } = {},
): Message {
  const from = opts.from ?? 2;
  return {
    id: opts.id ?? `uuid-${msgId}`,
    msg_id: msgId,
    type: 'text',
    content: opts.content ?? `message ${msgId}`,
    sendTime: 1_700_000_000_000 + msgId * 1000,
    toContactId: opts.to ?? (opts.group ? 'group-1' : 1),
    is_group: opts.group ? 1 : 0,
    status: 'succeed',
    is_read: opts.is_read ?? 0,
    at: opts.at ?? [],
    pid: 0,
    fromUser: { id: from, user_id: from, realname: `user ${from}`, displayName: `user ${from}`, avatar: '' },
    extends: {},
  };
}

/** `msg(…)` withdrawn by its sender: the event line that takes its place. */
export function withdrawn(msgId: number, opts: Parameters<typeof msg>[1] = {}): Message {
  const { type: _type, extends: _extends, ...rest } = msg(msgId, opts);
  const from = typeof rest.fromUser.id === 'number' ? rest.fromUser.id : 0;
  return {
    ...rest,
    type: 'event',
    content: `user ${from} withdrew a message`,
    extends: {
      event: 'undo',
      user_id: from,
      name: rest.fromUser.realname,
      by: from,
      by_name: rest.fromUser.realname,
      original_type: 'text',
    },
  };
}
