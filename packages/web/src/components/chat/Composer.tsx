import { graphemeLength, lastGrapheme, TEXT_MESSAGE_MAX } from '@sparrow/protocol';
import { AddCircleOutline, AudioOutline, CloseCircleFill, SmileOutline, TextOutline } from 'antd-mobile-icons';
import {
  forwardRef,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { useTranslation } from 'react-i18next';
import { composerKey } from '../../lib/desk-keys';
import { namedFile, pastedFiles } from '../../lib/dropped-files';
import { insertMention, mentionIds, typedAt, type Mention } from '../../lib/mentions';
import { drafts } from '../../stores/drafts';
import { useSettings } from '../../stores/settings';
import { HoldToTalk } from '../composer/HoldToTalk';
import { MorePanel } from '../composer/MorePanel';
import { EmojiPanel } from './EmojiPanel';
import { MentionPicker, type Mentionable } from './MentionPicker';

export interface ComposerHandle {
  /** Puts text in the box (re-editing a withdrawn message) and focuses it. */
  setText(text: string): void;
  focus(): void;
  /** Closes the emoji or "+" panel; answers whether one was open. */
  closePanels(): boolean;
}

interface Props {
  /** The contact key the draft is kept under. */
  draftKey: string;
  /** Why I may not speak here; the box is replaced by this line. */
  blocked: string | null;
  /** Beside the reason the input is closed: what can be done about it (a friend request). */
  blockedAction?: ReactNode;
  /** The bar over the box: the message quoted, or (with `label`) the text being edited. */
  quote: { name: string; content: string; label?: string; cancelLabel?: string } | null;
  onCancelQuote: () => void;
  /** Group members for the @ list; null in private chats. */
  mentionable: readonly Mentionable[] | null;
  canMentionAll: boolean;
  onSend: (text: string, at: number[]) => void;
  /** Files pasted into the box (not text), to be confirmed before they are sent. */
  onAttach: (files: File[]) => void;
  /** ↑ in the empty box: starts editing my last message, answering whether there was one. */
  onEditLast: () => boolean;
  /** The box's text changed (对方正在输入…: I am typing). */
  onInput?: (() => void) | undefined;
  /** I stopped typing: sent, emptied the box or left it. */
  onStop?: (() => void) | undefined;
}

const MAX_HEIGHT = 120;
/** The counter appears this close to the limit. */
const COUNTER_FROM = 100;

/** The input bar: text with the draft kept per contact, the emoji panel, @ mentions and the quote. */
export const Composer = forwardRef(function Composer(
  {
    draftKey,
    blocked,
    blockedAction,
    quote,
    onCancelQuote,
    mentionable,
    canMentionAll,
    onSend,
    onAttach,
    onEditLast,
    onInput,
    onStop,
  }: Props,
  ref: Ref<ComposerHandle>,
) {
  const { t } = useTranslation();
  const sendKey = useSettings((s) => s.sendKey);
  const [text, setText] = useState(() => drafts.get(draftKey));
  const [panel, setPanel] = useState(false);
  /** The "+" panel (album, camera, location, card, file, stickers) and hold-to-talk instead of the box. */
  const [more, setMore] = useState(false);
  const [voice, setVoice] = useState(false);
  const [picking, setPicking] = useState(false);
  const mentions = useRef<Mention[]>([]);
  const box = useRef<HTMLTextAreaElement>(null);
  const caret = useRef(text.length);

  useEffect(() => {
    setText(drafts.get(draftKey));
    mentions.current = [];
  }, [draftKey]);

  /** Where the caret goes once the box shows the text that was put in (a mention, an emoji). */
  const placeCaret = useRef<number | null>(null);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT)}px`;
  }, [text]);

  // In the commit that shows the text: a later frame could move the caret back behind what was
  // typed since, and the next keys would land in the middle.
  useLayoutEffect(() => {
    const at = placeCaret.current;
    placeCaret.current = null;
    const el = box.current;
    if (at !== null && el && document.activeElement === el) el.setSelectionRange(at, at);
  });

  const update = (next: string, nextCaret?: number) => {
    setText(next);
    drafts.set(draftKey, next);
    if (nextCaret !== undefined) {
      caret.current = nextCaret;
      placeCaret.current = nextCaret;
    }
  };

  useImperativeHandle(ref, () => ({
    setText: (value: string) => {
      update(value, value.length);
      setPanel(false);
      setMore(false);
      setVoice(false);
      box.current?.focus();
    },
    focus: () => box.current?.focus(),
    closePanels,
  }));

  const length = graphemeLength(text);
  const tooLong = length > TEXT_MESSAGE_MAX;
  const canSend = text.trim().length > 0 && !tooLong;

  const send = () => {
    if (!canSend) return;
    onSend(text, mentionable ? mentionIds(text, mentions.current) : []);
    onStop?.();
    mentions.current = [];
    update('', 0);
  };

  const insert = (s: string) => {
    const at = Math.min(caret.current, text.length);
    update(text.slice(0, at) + s + text.slice(at), at + s.length);
  };

  const backspace = () => {
    const at = Math.min(caret.current, text.length);
    if (at === 0) return;
    const before = text.slice(0, at);
    const head = before.slice(0, before.length - lastGrapheme(before).length);
    update(head + text.slice(at), head.length);
  };

  function closePanels(): boolean {
    if (!panel && !more) return false;
    setPanel(false);
    setMore(false);
    return true;
  }

  /** A line break where the selection is (Ctrl/⌘+Enter, which the box itself ignores). */
  const newline = (el: HTMLTextAreaElement) => {
    const { selectionStart: from, selectionEnd: to } = el;
    update(text.slice(0, from) + '\n' + text.slice(to), from + 1);
  };

  const handleKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const { key, ctrlKey, metaKey, shiftKey, altKey } = e;
    const { isComposing, keyCode } = e.nativeEvent;
    const press = { key, ctrlKey, metaKey, shiftKey, altKey, isComposing, keyCode };
    const action = composerKey(press, sendKey, text.length === 0);
    if (action === 'send') {
      e.preventDefault();
      send();
    } else if (action === 'newline') {
      e.preventDefault();
      newline(e.currentTarget);
    } else if (action === 'editLast') {
      if (onEditLast()) e.preventDefault();
    } else if (action === 'close' && quote) {
      e.preventDefault();
      e.stopPropagation();
      onCancelQuote();
    }
  };

  const handlePaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = pastedFiles(e.clipboardData);
    if (files.length === 0) return;
    e.preventDefault();
    const now = new Date();
    onAttach(files.map((f) => namedFile(f, now)));
  };

  /** Escape in an open panel closes it and brings the keyboard back to the box. */
  const handlePanelKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Escape' || e.defaultPrevented || !closePanels()) return;
    e.preventDefault();
    e.stopPropagation();
    box.current?.focus();
  };

  if (blocked) {
    return (
      <div className="composer composer-blocked" role="status">
        {blocked}
        {blockedAction && <> {blockedAction}</>}
      </div>
    );
  }

  return (
    <div className="composer-wrap" onKeyDown={handlePanelKey}>
      {quote && (
        <div className="composer-quote">
          <span className="composer-quote-text">
            {quote.label ?? t('chat.replyTo', { name: quote.name })}
            {quote.content}
          </span>
          <button
            type="button"
            className="composer-quote-close"
            aria-label={quote.cancelLabel ?? t('chat.cancelQuote')}
            onClick={onCancelQuote}
          >
            <CloseCircleFill aria-hidden="true" />
          </button>
        </div>
      )}
      <div className="composer">
        <button
          type="button"
          className="composer-icon"
          aria-label={voice ? t('media.voice.keyboard') : t('media.voice.mode')}
          aria-pressed={voice}
          onClick={() => {
            setPanel(false);
            setMore(false);
            if (voice) requestAnimationFrame(() => box.current?.focus());
            setVoice((v) => !v);
          }}
        >
          {voice ? <TextOutline aria-hidden="true" /> : <AudioOutline aria-hidden="true" />}
        </button>
        {voice ? (
          <HoldToTalk chatKey={draftKey} />
        ) : (
          <textarea
            ref={box}
            className="composer-input"
            rows={1}
            value={text}
            aria-label={t('chat.inputLabel')}
            aria-invalid={tooLong || undefined}
            enterKeyHint={sendKey === 'enter' ? 'send' : 'enter'}
            onChange={(e) => {
              const next = e.target.value;
              const pos = e.target.selectionStart;
              if (mentionable && typedAt(text, next, pos)) setPicking(true);
              caret.current = pos;
              placeCaret.current = null;
              update(next);
              if (next.trim()) onInput?.();
              else onStop?.();
            }}
            onBlur={() => onStop?.()}
            onSelect={(e) => {
              caret.current = e.currentTarget.selectionStart;
            }}
            onFocus={() => {
              setPanel(false);
              setMore(false);
            }}
            onKeyDown={handleKey}
            onPaste={handlePaste}
          />
        )}
        <button
          type="button"
          className="composer-icon"
          aria-label={panel ? t('chat.keyboard') : t('chat.emoji')}
          aria-expanded={panel}
          onClick={() => {
            if (panel) box.current?.focus();
            setPanel((p) => !p);
            setMore(false);
            setVoice(false);
          }}
        >
          {panel ? <TextOutline aria-hidden="true" /> : <SmileOutline aria-hidden="true" />}
        </button>
        {text.trim() && !voice ? (
          <button type="button" className="composer-send" disabled={!canSend} onClick={send}>
            {t('chat.send')}
          </button>
        ) : (
          <button
            type="button"
            className="composer-icon"
            aria-label={more ? t('media.more.close') : t('media.more.open')}
            aria-expanded={more}
            onClick={() => {
              setMore((m) => !m);
              setPanel(false);
            }}
          >
            <AddCircleOutline aria-hidden="true" />
          </button>
        )}
      </div>
      {length > TEXT_MESSAGE_MAX - COUNTER_FROM && (
        <p className={`composer-count${tooLong ? ' composer-count-over' : ''}`} aria-live="polite">
          {t('chat.remaining', { count: TEXT_MESSAGE_MAX - length })}
        </p>
      )}
      {panel && <EmojiPanel onPick={insert} onBackspace={backspace} onSend={send} canSend={canSend} />}
      {more && <MorePanel chatKey={draftKey} />}
      {picking && mentionable && (
        <MentionPicker
          people={mentionable}
          canMentionAll={canMentionAll}
          onClose={() => {
            setPicking(false);
            box.current?.focus();
          }}
          onPick={(who) => {
            setPicking(false);
            mentions.current.push({ id: who.id, name: who.name });
            const r = insertMention(text, caret.current, who.name);
            update(r.text, r.caret);
            box.current?.focus();
          }}
        />
      )}
    </div>
  );
});
