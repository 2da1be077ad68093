import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { conversationList, contactKey } from '../../lib/conversation-list';
import { appleKeyboard, deskKey, isChatComposer, isTyping, neighbourChat } from '../../lib/desk-keys';
import { chatPath, paths } from '../../nav/paths';
import { contactsStore } from '../../stores/contacts';
import { draftsStore } from '../../stores/drafts';
import { outgoingStore } from '../../stores/outgoing';
import { QuickSwitcher } from './QuickSwitcher';
import { ShortcutsSheet } from './ShortcutsSheet';

/** A chat opened from the keyboard takes the keyboard to its input box (read by the chat page). */
export const FOCUS_COMPOSER = { focusComposer: true };

/**
 * The chat the address shows, read when the key is pressed: a key pressed again right after a move
 * must start from the chat moved to, before React has drawn it.
 */
function openChat(): string | null {
  const [path, query = ''] = window.location.hash.replace(/^#/, '').split('?');
  return path === paths.chat ? new URLSearchParams(query).get('id') : null;
}

/** The keys of the Messages tab's list, in its order. */
function listedChats(): string[] {
  const list = conversationList(
    Object.values(contactsStore.getState().rows),
    draftsStore.getState().drafts,
    outgoingStore.getState().byKey,
  );
  return list.map((c) => contactKey(c.id));
}

/**
 * The app's keyboard shortcuts at a desk, on every signed-in page: Ctrl+K (⌘+K on a Mac) the quick
 * switcher, Alt+↑/↓ the previous or next chat of the Messages tab (outside fields other than the
 * chat's input box), "?" the list of shortcuts. Keys are left
 * alone while another dialog is open.
 */
export default function DeskKeys() {
  const [open, setOpen] = useState<'switcher' | 'shortcuts' | null>(null);
  const navigate = useNavigate();

  useEffect(() => {
    if (open) return;
    const handleKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || document.querySelector('[aria-modal="true"]')) return;
      const focus = document.activeElement;
      const typing = isTyping(focus);
      const action = deskKey(e, typing, { field: typing && !isChatComposer(focus), apple: appleKeyboard() });
      if (!action) return;
      e.preventDefault();
      if (action === 'switcher' || action === 'shortcuts') {
        setOpen(action);
        return;
      }
      const current = openChat();
      const next = neighbourChat(listedChats(), current, action === 'nextChat' ? 1 : -1);
      if (next) void navigate(chatPath(next), { replace: current !== null, state: FOCUS_COMPOSER });
    };
    window.addEventListener('keydown', handleKey);
    return () => window.removeEventListener('keydown', handleKey);
  }, [open, navigate]);

  const close = () => setOpen(null);
  if (open === 'shortcuts') return <ShortcutsSheet onClose={close} />;
  if (open === 'switcher')
    return (
      <QuickSwitcher
        onClose={close}
        onOpen={(key) => {
          setOpen(null);
          void navigate(chatPath(key), { state: FOCUS_COMPOSER });
        }}
      />
    );
  return null;
}
