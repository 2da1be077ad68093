import { EDIT_TIME_DEFAULT_S, editable, GroupRoles, takesReactions, type Message } from '@sparrow/protocol';
import { useCallback, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { ChatRow, ConversationEngine } from '../../chat/engine';
import type { MenuAction } from '../ActionMenu';
import type { ComposerHandle } from '../chat/Composer';
import { EditHistorySheet } from './EditHistorySheet';
import { QuickReactions } from './QuickReactions';
import { ReactionPicker } from './ReactionPicker';
import { ReactorsSheet } from './ReactorsSheet';

interface Options {
  engine: ConversationEngine;
  composer: RefObject<ComposerHandle | null>;
  me: number;
  isGroup: boolean;
  myRole: number;
  /** The group's reactions switch (GroupSetting.reaction); private chats take them always. */
  reactionsOn: boolean;
  /** `chatInfo.editTime`, seconds (the default until the configuration is read). */
  editTimeS: number | undefined;
  /** Nothing in the chat may change (a disbanded group), or I may not write in it. */
  readOnly: boolean;
}

/** A stored message of a kind that takes reactions. */
const reactable = (m: Message) => m.msg_id > 0 && takesReactions(m.type);

type Sheet =
  | { kind: 'who'; msgId: number; emoji: string | null }
  | { kind: 'pick'; msgId: number }
  | { kind: 'history'; msgId: number };

/**
 * What a chat offers of reactions and edits: the quick row over a message's menu, the chips'
 * tap and long press, 编辑 and 编辑记录 in the menu, the composer's editing state, and the sheets
 * (who reacted, the whole emoji panel, earlier versions). The engine applies the server's pushes.
 */
export function useReactionsEdits(o: Options) {
  const { t } = useTranslation();
  const { engine } = o;
  const [sheet, setSheet] = useState<Sheet | null>(null);
  const [editing, setEditing] = useState<Message | null>(null);

  /** Reactions may be put on or taken back here now. */
  const open = !o.readOnly && o.reactionsOn;

  const react = useCallback(
    async (msgId: number, emoji: string, on: 0 | 1) => {
      try {
        // The answer is what I now see; the push that follows says the same.
        const { reactions } = await api.reactMessage({ id: msgId, emoji, on });
        engine.setReactions(msgId, reactions);
      } catch {
        // The request layer said why (reactions off, too many).
      }
    },
    [engine],
  );

  const onReact = useCallback(
    (row: ChatRow, emoji: string, on: 0 | 1) => {
      if (open && reactable(row.message)) void react(row.message.msg_id, emoji, on);
    },
    [react, open],
  );
  const onReactors = useCallback(
    (row: ChatRow, emoji: string) => setSheet({ kind: 'who', msgId: row.message.msg_id, emoji }),
    [],
  );

  /** The quick reactions over a message's menu (each closing it with `close`), or nothing where it takes none. */
  const menuHeader = (row: ChatRow, close: () => void): ReactNode => {
    const m = row.message;
    if (row.state !== 'sent' || !open || !reactable(m)) return undefined;
    const mine = new Set((m.reactions ?? []).filter((r) => r.mine).map((r) => r.emoji));
    return (
      <QuickReactions
        mine={mine}
        onPick={(emoji) => {
          close();
          void react(m.msg_id, emoji, mine.has(emoji) ? 0 : 1);
        }}
        onMore={() => {
          close();
          setSheet({ kind: 'pick', msgId: m.msg_id });
        }}
      />
    );
  };

  /** 编辑 (my text, within the window) and 编辑记录 (an edited text, for its sender and a group's owner and admins). */
  const menuActions = (row: ChatRow): MenuAction[] => {
    const m = row.message;
    if (row.state !== 'sent') return [];
    const mine = m.fromUser.id === o.me;
    const actions: MenuAction[] = [];
    const rule = {
      mine,
      type: m.type,
      announcement: m.type === 'text' && m.extends.notice === 1,
      age: Date.now() - m.sendTime,
      editTimeS: o.editTimeS ?? EDIT_TIME_DEFAULT_S,
    };
    if (!o.readOnly && editable(rule)) {
      actions.push({
        key: 'edit',
        label: t('edit.action'),
        onSelect: () => {
          setEditing(m);
          o.composer.current?.setText(m.content);
        },
      });
    }
    const admin = o.isGroup && (o.myRole === GroupRoles.Owner || o.myRole === GroupRoles.Admin);
    if (m.edited !== undefined && (mine || admin))
      actions.push({
        key: 'editHistory',
        label: t('edit.history'),
        onSelect: () => setSheet({ kind: 'history', msgId: m.msg_id }),
      });
    return actions;
  };

  const cancelEdit = useCallback(() => {
    setEditing(null);
    o.composer.current?.setText('');
  }, [o.composer]);

  /** Sends the composer's text as the edit under way; false when no edit is under way (a new message then). */
  const sendEdit = (text: string): boolean => {
    const m = editing;
    if (!m) return false;
    setEditing(null);
    if (text === m.content) return true;
    void api
      .editMessage({ id: m.msg_id, content: text })
      .then((edited) => {
        engine.receive(edited);
      })
      .catch(() => {
        // The request layer said why; the text stays as it was.
      });
    return true;
  };

  const editBar = editing
    ? { name: '', label: t('edit.editing'), content: editing.content, cancelLabel: t('edit.cancel') }
    : null;

  const shown = sheet ? engine.message(sheet.msgId) : undefined;
  const sheets =
    sheet?.kind === 'who' ? (
      <ReactorsSheet
        msgId={sheet.msgId}
        reactions={shown?.reactions ?? []}
        emoji={sheet.emoji}
        me={o.me}
        onClose={() => setSheet(null)}
      />
    ) : sheet?.kind === 'pick' ? (
      <ReactionPicker
        onPick={(emoji) => {
          const had = shown?.reactions?.some((r) => r.emoji === emoji && r.mine) ?? false;
          setSheet(null);
          void react(sheet.msgId, emoji, had ? 0 : 1);
        }}
        onClose={() => setSheet(null)}
      />
    ) : sheet?.kind === 'history' ? (
      <EditHistorySheet
        msgId={sheet.msgId}
        current={shown?.content ?? ''}
        now={Date.now()}
        onClose={() => setSheet(null)}
      />
    ) : null;

  return { menuHeader, menuActions, onReact, onReactors, editBar, cancelEdit, sendEdit, sheets };
}
