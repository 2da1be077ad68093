import { mayPinInGroup, patWithdrawable, type Message, type PinnedMessage } from '@sparrow/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api';
import { contactIdOf, isGroupKey, SELF_KEY, type ContactKey } from '../lib/conversation-list';
import { useContacts } from '../stores/contacts';
import type { ChatRow } from './engine';

/** Whether a message can be pinned at all: a stored message of content (not an event or call line). */
export const pinnable = (m: Message): boolean => m.msg_id > 0 && m.type !== 'event' && m.type !== 'webrtc';

/** Whether an event line is a pat of mine that I may still withdraw. */
export function ownPatWithdrawable(m: Message, me: number, now: number): boolean {
  return (
    m.type === 'event' && m.extends.event === 'pat' && m.extends.user_id === me && patWithdrawable(m.sendTime, now)
  );
}

/**
 * Whether I may pin in this chat, as the server decides it: in a group the owner and
 * administrators, or everyone when the group lets members; in a private chat while I may write
 * to it; never in my own chat or a disbanded group.
 */
export function mayPin(
  key: ContactKey,
  opts: { myRole: number; membersMayPin: number; blocked: boolean; disbanded: boolean },
): boolean {
  if (key === SELF_KEY || opts.disbanded) return false;
  return isGroupKey(key) ? mayPinInGroup(opts.myRole, opts.membersMayPin) : !opts.blocked;
}

/**
 * A chat's pinned messages, newest pin first, kept current: read again when an event line (a pin
 * or an unpin) arrives in the chat, and when a pinned message I saw is withdrawn or deleted.
 */
export function usePins(key: ContactKey, rows: readonly ChatRow[]) {
  const [pins, setPins] = useState<PinnedMessage[]>([]);
  const asked = useRef(0);

  const load = useCallback(async () => {
    if (key === SELF_KEY) return;
    const ask = ++asked.current;
    try {
      const list = await api.pinList(
        { toContactId: contactIdOf(key), is_group: isGroupKey(key) ? 1 : 0 },
        { silent: true },
      );
      // An answer to an older question is not shown over a newer one's.
      if (ask === asked.current) setPins(list);
    } catch {
      // The bar keeps what it showed; the next pin line or visit reads them again.
    }
  }, [key]);

  useEffect(() => {
    void load();
  }, [load]);

  // An event line newer than those seen (a pin or unpin among them): read the pins again. The
  // contact row hears of it even while the chat shows older history and holds what is newer.
  const lastEvent = useContacts((s) => {
    const row = s.rows[key];
    return row?.type === 'event' ? row.lastSendTime : 0;
  });
  const eventSeen = useRef(lastEvent);
  useEffect(() => {
    if (lastEvent <= eventSeen.current) return;
    eventSeen.current = lastEvent;
    void load();
  }, [lastEvent, load]);

  // A pinned message shown in the chat and then withdrawn (its row an event line now) or deleted
  // (its row gone from between the rows around it) drops out of the pins; one that is only out of
  // the rows loaded, the chat having moved elsewhere, stays.
  const shown = useRef(new Set<number>());
  useEffect(() => {
    const live = new Set(rows.filter((r) => r.message.type !== 'event').map((r) => r.message.msg_id));
    const withdrawn = new Set(rows.filter((r) => r.message.type === 'event').map((r) => r.message.msg_id));
    const ids = rows.map((r) => r.message.msg_id).filter((id) => id > 0);
    const [low, high] = [Math.min(...ids), Math.max(...ids)];
    let gone = false;
    for (const p of pins) {
      const id = p.message.msg_id;
      if (live.has(id)) shown.current.add(id);
      else if (shown.current.has(id) && (withdrawn.has(id) || (id > low && id < high))) gone = true;
    }
    if (!gone) return;
    shown.current.clear();
    void load();
  }, [rows, pins, load]);

  const setPinned = useCallback(
    async (msgId: number, pin: boolean) => {
      await api.pinMessage({ id: msgId, pin: pin ? 1 : 0 }, { quiet: true });
      await load();
    },
    [load],
  );

  return { pins, reload: load, setPinned };
}

export type PinsModel = ReturnType<typeof usePins>;
