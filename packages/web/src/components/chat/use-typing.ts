import { TYPING_GROUP_MAX, type GroupMember } from '@sparrow/protocol';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { contactIdOf, isGroupKey, SELF_KEY } from '../../lib/conversation-list';
import { TypingSignal, typingTitle } from '../../lib/typing';
import { loadRealtime } from '../../session/connection';
import { contactsStore } from '../../stores/contacts';
import { useSession } from '../../stores/session';
import { useTypers } from '../../stores/typing';

interface Options {
  chatKey: string;
  /** The group's member count, when it is a group (typing shows only in groups of at most TYPING_GROUP_MAX). */
  memberCount: number | undefined;
  members: readonly GroupMember[];
  /** I may write here now (not blocked, not a disbanded group, not a chat with myself). */
  canWrite: boolean;
}

/** Whether a chat shows and tells typing at all: a private chat with someone, or a small group. */
function typingChat(key: string, memberCount: number | undefined): boolean {
  if (isGroupKey(key)) return memberCount !== undefined && memberCount <= TYPING_GROUP_MAX;
  return key !== SELF_KEY && /^\d+$/.test(key);
}

/**
 * 对方正在输入… for one open chat: the composer's `onInput`/`onStop` tell the peer or the group that I
 * am typing (TypingSignal's rule, over the socket), and `title` is what the chat says under its
 * name while someone types there (null: nothing). Nothing either way while my setting (userInfo.typing) is off.
 */
export function useTyping({ chatKey, memberCount, members, canWrite }: Options) {
  const { t } = useTranslation();
  const on = useSession((s) => s.user?.typing !== 0);
  const applies = on && typingChat(chatKey, memberCount);
  const sends = applies && canWrite;
  const signal = useMemo(() => {
    if (!sends) return null;
    const to = contactIdOf(chatKey) as number | `group-${number}`;
    return new TypingSignal((state) => {
      void loadRealtime().then(({ socket }) => {
        try {
          socket.send({ type: 'typing', to, state });
        } catch {
          // Not connected: nobody hears it, and a stale 1 lapses on its own.
        }
      });
    });
  }, [chatKey, sends]);
  // Leaving the chat (or the setting turned off) stops it.
  useEffect(() => () => signal?.stop(), [signal]);
  useEffect(() => {
    if (!signal) return;
    const handleHide = () => {
      if (document.visibilityState === 'hidden') signal.stop();
    };
    document.addEventListener('visibilitychange', handleHide);
    return () => document.removeEventListener('visibilitychange', handleHide);
  }, [signal]);

  const typers = useTypers(chatKey);
  const shown = applies ? typingTitle(typers, isGroupKey(chatKey), (id) => nameOf(members, id)) : null;
  let title: string | null = null;
  if (shown?.key === 'typing.peer') title = t('typing.peer');
  else if (shown?.key === 'typing.someone') title = t('typing.someone');
  else if (shown?.key === 'typing.one') title = t('typing.one', { name: shown.name });
  else if (shown?.key === 'typing.many') title = t('typing.many', { name: shown.name, count: shown.count });
  return {
    title,
    onInput: signal ? () => signal.input() : undefined,
    onStop: signal ? () => signal.stop() : undefined,
  };
}

/** A member's name in the group; while the members load, the name my contacts give them ('' none). */
function nameOf(members: readonly GroupMember[], id: number): string {
  const m = members.find((x) => x.user_id === id);
  if (m) return m.nickname || m.userInfo.displayName || m.userInfo.realname;
  return contactsStore.getState().rows[String(id)]?.displayName ?? '';
}
