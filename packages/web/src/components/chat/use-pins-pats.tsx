import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { ChatRow, ConversationEngine } from '../../chat/engine';
import { mayPin, ownPatWithdrawable, pinnable, usePins } from '../../chat/use-pins';
import { contactIdOf, isGroupKey, SELF_KEY, type ContactKey } from '../../lib/conversation-list';
import type { MenuAction } from '../ActionMenu';
import { PinBar } from './PinBar';

interface Options {
  engine: ConversationEngine;
  me: number;
  now: number;
  myRole: number;
  /** The group's `pin` setting: every member may pin. */
  membersMayPin: number;
  /** Why I may not write here now (a mute, a lost friendship), or null. */
  blocked: string | null;
  disbanded: boolean;
  /** Brings the newest row into view (my own pat, once it is in the chat). */
  reveal(): void;
}

/**
 * What the chat page shows and offers of pinned messages and pats: the pin bar under the title,
 * 置顶/取消置顶 and the withdrawal of my own pat in the long-press menu, and the pat a double tap
 * on an avatar sends.
 */
export function usePinsPats(key: ContactKey, rows: readonly ChatRow[], opts: Options) {
  const { t } = useTranslation();
  const { engine, me, now } = opts;
  const pinned = usePins(key, rows);
  const canPin = mayPin(key, {
    myRole: opts.myRole,
    membersMayPin: opts.membersMayPin,
    blocked: opts.blocked !== null,
    disbanded: opts.disbanded,
  });
  const setPinned = useCallback(
    (msgId: number, pin: boolean) =>
      pinned.setPinned(msgId, pin).catch(() => {
        // The request layer has shown why (the chat's pins are full, not allowed).
      }),
    [pinned],
  );

  const bar = (
    <PinBar
      pins={pinned.pins}
      canUnpin={canPin}
      me={me}
      now={now}
      onJump={(msgId) => void engine.openAt(msgId)}
      onUnpin={(msgId) => void setPinned(msgId, false)}
    />
  );

  const menuActions = (row: ChatRow): MenuAction[] => {
    const m = row.message;
    const actions: MenuAction[] = [];
    if (canPin && pinnable(m)) {
      const on = pinned.pins.some((p) => p.message.msg_id === m.msg_id);
      actions.push({
        key: 'pin',
        label: on ? t('pins.unpin') : t('pins.pin'),
        onSelect: () => void setPinned(m.msg_id, !on),
      });
    }
    if (ownPatWithdrawable(m, me, Date.now()))
      actions.push({
        key: 'withdraw',
        label: t('chat.withdraw'),
        onSelect: () =>
          void api.undoMessage({ id: m.msg_id }, { quiet: true }).then(
            () => engine.remove(m.msg_id),
            () => {
              // Shown by the request layer (too late).
            },
          ),
      });
    return actions;
  };

  const mayPat = key !== SELF_KEY && !opts.disbanded && opts.blocked === null;
  const reveal = useRef(opts.reveal);
  useEffect(() => {
    reveal.current = opts.reveal;
  });
  const pat = useCallback(
    (row: ChatRow) => {
      const whom = row.message.fromUser.id;
      if (typeof whom !== 'number') return;
      api
        .patUser({ toContactId: contactIdOf(key), is_group: isGroupKey(key) ? 1 : 0, user_id: whom }, { quiet: true })
        .then(
          (line) => {
            engine.receive(line);
            requestAnimationFrame(() => reveal.current());
          },
          () => {
            // Shown by the request layer (too many pats, not allowed).
          },
        );
    },
    [engine, key],
  );

  return { bar, menuActions, onPat: mayPat ? pat : undefined };
}
