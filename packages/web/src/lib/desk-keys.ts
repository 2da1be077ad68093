/** Which key sends the composer's text; the other one breaks the line. */
export type SendKey = 'enter' | 'ctrlEnter';

export const SEND_KEYS: readonly SendKey[] = ['enter', 'ctrlEnter'];
export const DEFAULT_SEND_KEY: SendKey = 'enter';

/** The parts of a keyboard event the mappings read. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** An input method is composing (Enter then picks the candidate, it sends nothing). */
  isComposing?: boolean;
  /** The legacy key code: 229 while an input method holds the key. */
  keyCode?: number;
}

/**
 * Whether an input method has the key: Enter then commits a candidate and sends nothing. Safari
 * sends the Enter that commits with isComposing false and keyCode 229, so both are read.
 */
export function imeComposing(e: Pick<KeyPress, 'isComposing' | 'keyCode'>): boolean {
  return e.isComposing === true || e.keyCode === 229;
}

/** Ctrl on Windows and Linux, ⌘ on a Mac: either counts. */
const command = (e: KeyPress) => e.ctrlKey || e.metaKey;

/** Whether the keyboard is Apple's (⌘ where others have Ctrl). */
export function appleKeyboard(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
}

export type ComposerAction = 'send' | 'newline' | 'editLast' | 'close' | null;

/**
 * What a key pressed in the composer's box does: Enter sends or breaks the line as the user chose
 * (Shift+Enter always breaks it), ↑ in an empty box edits my last message, Escape closes what is open.
 * Null leaves the key to the box.
 */
export function composerKey(e: KeyPress, sendKey: SendKey, empty: boolean): ComposerAction {
  if (imeComposing(e)) return null;
  if (e.key === 'Enter') {
    if (e.shiftKey || e.altKey) return null;
    const sends = sendKey === 'enter' ? !command(e) : command(e);
    return sends ? 'send' : 'newline';
  }
  if (e.key === 'ArrowUp' && empty && !command(e) && !e.shiftKey && !e.altKey) return 'editLast';
  if (e.key === 'Escape') return 'close';
  return null;
}

export type DeskAction = 'switcher' | 'previousChat' | 'nextChat' | 'shortcuts' | 'closePanel' | 'leaveField' | null;

/** Where a key is pressed, beyond whether focus takes text. */
export interface DeskPlace {
  /** Focus is in a field other than the chat's input box: Alt+↑/↓ are the field's. */
  field?: boolean;
  /** An Apple keyboard: only ⌘+K opens the switcher; Ctrl+K is the field's (it deletes to the line's end). */
  apple?: boolean;
  /** The wide layout's right panel is open. */
  panel?: boolean;
}

/**
 * What a key pressed anywhere in the app does: Ctrl/⌘+K opens the quick switcher, Alt+↑/↓ moves
 * through the conversation list (except while typing in a field other than the chat's input box),
 * "?" (only while not typing in a field) lists the shortcuts, and Escape closes the wide layout's
 * right panel (when nothing nearer took it); in a field other than the chat's input box, with the
 * panel open, Escape first leaves the field, so typing a name is not lost to the panel closing.
 */
export function deskKey(e: KeyPress, typing: boolean, place: DeskPlace = {}): DeskAction {
  if (imeComposing(e)) return null;
  const switcherKey = place.apple ? e.metaKey && !e.ctrlKey : command(e);
  if (switcherKey && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') return 'switcher';
  if (e.altKey && !command(e) && !e.shiftKey && !place.field) {
    if (e.key === 'ArrowUp') return 'previousChat';
    if (e.key === 'ArrowDown') return 'nextChat';
  }
  if (e.key === '?' && !typing && !command(e) && !e.altKey) return 'shortcuts';
  if (e.key === 'Escape' && !command(e) && !e.altKey && !e.shiftKey) {
    return place.field && place.panel ? 'leaveField' : 'closePanel';
  }
  return null;
}

/** Whether focus is in something that takes text (a field, a text area, an editor). */
export function isTyping(el: Element | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  if (el instanceof HTMLInputElement)
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color'].includes(el.type);
  return el instanceof HTMLElement && el.isContentEditable;
}

/** Whether focus is in the chat's input box, where Alt+↑/↓ still move between chats. */
export function isChatComposer(el: Element | null): boolean {
  return el instanceof HTMLTextAreaElement && el.classList.contains('composer-input');
}

/**
 * The conversation `step` places away from `current` in `keys` (the Messages tab's order), stopping
 * at either end; from a page that is no listed chat, the first (down) or last (up) one.
 */
export function neighbourChat(keys: readonly string[], current: string | null, step: 1 | -1): string | null {
  if (keys.length === 0) return null;
  const at = current === null ? -1 : keys.indexOf(current);
  if (at < 0) return step === 1 ? (keys[0] ?? null) : (keys[keys.length - 1] ?? null);
  const next = at + step;
  return next >= 0 && next < keys.length ? (keys[next] ?? null) : null;
}
