import { describe, expect, it } from 'vitest';
import { composerKey, deskKey, imeComposing, neighbourChat, type KeyPress } from './desk-keys';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('composerKey', () => {
  it('sends on Enter and breaks the line on Ctrl/⌘+Enter by default', () => {
    expect(composerKey(press('Enter'), 'enter', false)).toBe('send');
    expect(composerKey(press('Enter', { ctrlKey: true }), 'enter', false)).toBe('newline');
    expect(composerKey(press('Enter', { metaKey: true }), 'enter', false)).toBe('newline');
  });

  it('sends on Ctrl/⌘+Enter and breaks the line on Enter when so chosen', () => {
    expect(composerKey(press('Enter'), 'ctrlEnter', false)).toBe('newline');
    expect(composerKey(press('Enter', { ctrlKey: true }), 'ctrlEnter', false)).toBe('send');
    expect(composerKey(press('Enter', { metaKey: true }), 'ctrlEnter', false)).toBe('send');
  });

  it('leaves Shift+Enter and an input method choosing its candidate to the box', () => {
    expect(composerKey(press('Enter', { shiftKey: true }), 'enter', false)).toBeNull();
    expect(composerKey(press('Enter', { isComposing: true }), 'enter', false)).toBeNull();
    expect(composerKey(press('Enter', { isComposing: true, ctrlKey: true }), 'ctrlEnter', false)).toBeNull();
  });

  it('leaves Safari’s candidate-committing Enter (isComposing false, keyCode 229) to the box', () => {
    expect(composerKey(press('Enter', { isComposing: false, keyCode: 229 }), 'enter', false)).toBeNull();
    expect(composerKey(press('Enter', { keyCode: 229, metaKey: true }), 'ctrlEnter', false)).toBeNull();
    expect(composerKey(press('Enter', { keyCode: 13 }), 'enter', false)).toBe('send');
  });

  it('edits the last message on ↑ only in an empty box, and closes on Escape', () => {
    expect(composerKey(press('ArrowUp'), 'enter', true)).toBe('editLast');
    expect(composerKey(press('ArrowUp'), 'enter', false)).toBeNull();
    expect(composerKey(press('ArrowUp', { altKey: true }), 'enter', true)).toBeNull();
    expect(composerKey(press('ArrowUp', { shiftKey: true }), 'enter', true)).toBeNull();
    expect(composerKey(press('Escape'), 'enter', false)).toBe('close');
    expect(composerKey(press('a'), 'enter', true)).toBeNull();
  });
});

describe('deskKey', () => {
  it('opens the switcher on Ctrl/⌘+K, typing or not', () => {
    expect(deskKey(press('k', { ctrlKey: true }), true)).toBe('switcher');
    expect(deskKey(press('K', { metaKey: true }), false)).toBe('switcher');
    expect(deskKey(press('k'), false)).toBeNull();
    expect(deskKey(press('k', { ctrlKey: true, shiftKey: true }), false)).toBeNull();
  });

  it('moves between chats on Alt+↑/↓', () => {
    expect(deskKey(press('ArrowUp', { altKey: true }), true)).toBe('previousChat');
    expect(deskKey(press('ArrowDown', { altKey: true }), false)).toBe('nextChat');
    expect(deskKey(press('ArrowDown'), false)).toBeNull();
    expect(deskKey(press('ArrowDown', { altKey: true, ctrlKey: true }), false)).toBeNull();
  });

  it('closes the right panel on a plain Escape, typing or not', () => {
    expect(deskKey(press('Escape'), false)).toBe('closePanel');
    expect(deskKey(press('Escape'), true)).toBe('closePanel');
    expect(deskKey(press('Escape', { shiftKey: true }), false)).toBeNull();
    expect(deskKey(press('Escape', { isComposing: true }), true)).toBeNull();
  });

  it('with the panel open, first leaves a field on Escape (a name being typed), then closes', () => {
    expect(deskKey(press('Escape'), true, { field: true, panel: true })).toBe('leaveField');
    expect(deskKey(press('Escape'), false, { field: false, panel: true })).toBe('closePanel');
    // The chat's input box is no such field, and without a panel there is nothing to keep.
    expect(deskKey(press('Escape'), true, { field: false, panel: true })).toBe('closePanel');
    expect(deskKey(press('Escape'), true, { field: true, panel: false })).toBe('closePanel');
  });

  it('leaves Alt+↑/↓ to a field other than the chat’s input box', () => {
    expect(deskKey(press('ArrowUp', { altKey: true }), true, { field: true })).toBeNull();
    expect(deskKey(press('ArrowDown', { altKey: true }), true, { field: true })).toBeNull();
    expect(deskKey(press('ArrowDown', { altKey: true }), true, { field: false })).toBe('nextChat');
    // The switcher still opens from any field.
    expect(deskKey(press('k', { ctrlKey: true }), true, { field: true })).toBe('switcher');
  });

  it('on a Mac opens the switcher on ⌘+K only, leaving Ctrl+K to the field', () => {
    expect(deskKey(press('k', { metaKey: true }), true, { apple: true })).toBe('switcher');
    expect(deskKey(press('k', { ctrlKey: true }), true, { apple: true })).toBeNull();
    expect(deskKey(press('k', { ctrlKey: true, metaKey: true }), false, { apple: true })).toBeNull();
    expect(deskKey(press('k', { ctrlKey: true }), true, { apple: false })).toBe('switcher');
  });

  it('ignores keys an input method holds, Safari’s keyCode 229 included', () => {
    expect(deskKey(press('k', { ctrlKey: true, keyCode: 229 }), true)).toBeNull();
    expect(deskKey(press('ArrowDown', { altKey: true, keyCode: 229 }), false)).toBeNull();
  });

  it('lists the shortcuts on "?" only while not typing', () => {
    expect(deskKey(press('?', { shiftKey: true }), false)).toBe('shortcuts');
    expect(deskKey(press('?', { shiftKey: true }), true)).toBeNull();
    expect(deskKey(press('?', { isComposing: true }), false)).toBeNull();
  });
});

describe('imeComposing', () => {
  it('reads isComposing or keyCode 229 as an input method holding the key', () => {
    expect(imeComposing({ isComposing: true })).toBe(true);
    expect(imeComposing({ isComposing: false, keyCode: 229 })).toBe(true);
    expect(imeComposing({ isComposing: false, keyCode: 13 })).toBe(false);
    expect(imeComposing({})).toBe(false);
  });
});

describe('neighbourChat', () => {
  const keys = ['5', 'group-1', '7'];
  it('steps through the list and stops at its ends', () => {
    expect(neighbourChat(keys, 'group-1', 1)).toBe('7');
    expect(neighbourChat(keys, 'group-1', -1)).toBe('5');
    expect(neighbourChat(keys, '7', 1)).toBeNull();
    expect(neighbourChat(keys, '5', -1)).toBeNull();
  });

  it('starts at an end from a page that is no listed chat', () => {
    expect(neighbourChat(keys, null, 1)).toBe('5');
    expect(neighbourChat(keys, 'elsewhere', -1)).toBe('7');
    expect(neighbourChat([], null, 1)).toBeNull();
  });
});
