import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { conversationList, contactKey } from '../../lib/conversation-list';
import { appleKeyboard, deskKey, isChatComposer, isTyping, neighbourChat } from '../../lib/desk-keys';
import { chatToMoveFrom, closePanel, currentMiddle, panelIsOpen, placeOf } from '../../lib/desk-panes';
import { chatPath } from '../../nav/paths';
import { contactsStore } from '../../stores/contacts';
import { draftsStore } from '../../stores/drafts';
import { outgoingStore } from '../../stores/outgoing';
import { QuickSwitcher } from './QuickSwitcher';
import { ShortcutsSheet } from './ShortcutsSheet';

/** A chat opened from the keyboard takes the keyboard to its input box (read by the chat page). */
export const FOCUS_COMPOSER = { focusComposer: true };

/**
 * The chat to move from: the address's, read when the key is pressed (a key pressed again right
 * after a move starts from the chat moved to, before React has drawn it), or with the wide layout's
 * panel open, the chat in the middle beside it.
 */
function openChat(): string | null {
  return chatToMoveFrom(placeOf(window.location.hash.replace(/^#/, '')), currentMiddle());
}

const DIALOGS = 'dialog[open], [role="dialog"], [role="alertdialog"], [aria-modal="true"]';

/** A dialog of any kind is shown (a sheet, a native dialog, an alert): its keys are its own. */
function dialogOpen(): boolean {
  return Array.from(document.querySelectorAll(DIALOGS)).some((el) => el.getClientRects().length > 0);
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
 * chat's input box), "?" the list of shortcuts, Escape closes the wide layout's right panel (from a
 * field, the first Escape leaves the field, the next closes the panel). Keys are left alone while a
 * dialog is open and when a nearer handler took them (preventDefault).
 */
export default function DeskKeys() {
  const [open, setOpen] = useState<'switcher' | 'shortcuts' | null>(null);
  const navigate = useNavigate();

  useEffect(() => {
    if (open) return;
    const handleKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || dialogOpen()) return;
      const focus = document.activeElement;
      const typing = isTyping(focus);
      const field = typing && !isChatComposer(focus);
      const action = deskKey(e, typing, { field, apple: appleKeyboard(), panel: panelIsOpen() });
      if (!action) return;
      if (action === 'closePanel' || action === 'leaveField') {
        // After every other listener of this key: the chat's own panels and the composer's quote go first.
        setTimeout(() => {
          if (e.defaultPrevented || dialogOpen()) return;
          if (action === 'closePanel') closePanel();
          else if (focus instanceof HTMLElement) focus.blur();
        });
        return;
      }
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
