import { ANNOUNCEMENT_MAX } from '@sparrow/protocol';
import { LinkOutline, UnorderedListOutline } from 'antd-mobile-icons';
import Quill, { Parchment } from 'quill/core';
import Bold from 'quill/formats/bold';
import Italic from 'quill/formats/italic';
import Link from 'quill/formats/link';
import List from 'quill/formats/list';
import Strike from 'quill/formats/strike';
import Underline from 'quill/formats/underline';
import type History from 'quill/modules/history';
import 'quill/dist/quill.core.css';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  HISTORY_OPTIONS,
  INDENT_LEVELS,
  clampIndent,
  editorHtml,
  nextIndent,
  normalizeLink,
  sanitizeLink,
} from './editor-config';
import './group.css';

/** Quill's indent format held to EDITOR.maxIndent: Tab on level 8, or a pasted level 9, stays 8. */
class ClampedIndent extends Parchment.ClassAttributor {
  override add(node: HTMLElement, value: unknown): boolean {
    const level = nextIndent(this.value(node) ?? 0, value);
    if (level === 0) {
      this.remove(node);
      return true;
    }
    return super.add(node, level);
  }
  override canAdd(_node: HTMLElement, value: unknown): boolean {
    return value === '+1' || value === '-1' || clampIndent(value) > 0;
  }
  override value(node: HTMLElement): number | undefined {
    const cls = Array.from(node.classList).find((c) => c.startsWith(`${this.keyName}-`));
    return (cls && clampIndent(cls.slice(this.keyName.length + 1))) || undefined;
  }
}

const Indent = new ClampedIndent('indent', 'ql-indent', {
  scope: Parchment.Scope.BLOCK,
  whitelist: INDENT_LEVELS.map(String),
});

/** Links only with the product's protocols; anything else leads nowhere. */
class SafeLink extends Link {
  static override sanitize(url: string): string {
    return sanitizeLink(url);
  }
}

Quill.register(
  {
    'formats/bold': Bold,
    'formats/italic': Italic,
    'formats/underline': Underline,
    'formats/strike': Strike,
    'formats/list': List,
    'formats/indent': Indent,
    'formats/link': SafeLink,
  },
  true,
);

const FORMATS = ['bold', 'italic', 'underline', 'strike', 'list', 'indent', 'link'];

type Mark = 'bold' | 'italic' | 'underline' | 'strike';

interface Active {
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  list: string | null;
  indent: number;
  link: string | null;
  canUndo: boolean;
  canRedo: boolean;
}

const NOTHING_ACTIVE: Active = {
  bold: false,
  italic: false,
  underline: false,
  strike: false,
  list: null,
  indent: 0,
  link: null,
  canUndo: false,
  canRedo: false,
};

interface Props {
  /** The current announcement (the server's sanitized HTML). */
  initialHtml: string;
  /** Every change: the HTML to post and the length of its text. */
  onChange: (html: string, length: number) => void;
}

function ToolButton({
  label,
  pressed,
  disabled,
  onClick,
  children,
}: {
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="gm-editor-tool"
      aria-label={label}
      aria-pressed={pressed}
      disabled={disabled}
      // Keeps the editor's selection when the button is tapped.
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/**
 * The group announcement editor: Quill with the product's history, indent and link rules, and a
 * toolbar of labelled buttons. Loaded only when someone edits an announcement.
 */
export default function AnnouncementEditor({ initialHtml, onChange }: Props) {
  const { t } = useTranslation();
  const hostRef = useRef<HTMLDivElement>(null);
  const quillRef = useRef<Quill | null>(null);
  const [active, setActive] = useState<Active>(NOTHING_ACTIVE);
  const [length, setLength] = useState(0);
  const [linkOpen, setLinkOpen] = useState(false);
  const [linkText, setLinkText] = useState('');
  const [linkError, setLinkError] = useState(false);
  const savedRange = useRef<{ index: number; length: number } | null>(null);
  const onChangeRef = useRef(onChange);
  /** Reads the formats at the cursor again: a format set on an empty selection changes no text. */
  const refreshRef = useRef<() => void>(() => {});
  const linkInputId = useId();
  const counterId = useId();
  const label = t('group.notice.editorLabel');
  const placeholder = t('group.notice.placeholder');

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const wrapper = hostRef.current;
    if (!wrapper) return;
    const host = document.createElement('div');
    wrapper.appendChild(host);
    const quill = new Quill(host, {
      formats: FORMATS,
      placeholder,
      modules: { history: HISTORY_OPTIONS, toolbar: false },
    });
    quillRef.current = quill;
    const root = quill.root;
    root.setAttribute('role', 'textbox');
    root.setAttribute('aria-multiline', 'true');
    root.setAttribute('aria-label', label);
    root.setAttribute('aria-describedby', counterId);

    if (initialHtml) quill.setContents(quill.clipboard.convert({ html: initialHtml }), 'silent');
    const history = quill.getModule('history') as History;
    history.clear();

    const report = () => {
      const text = quill.getText();
      const len = text.replace(/\n$/, '').length;
      setLength(len);
      onChangeRef.current(editorHtml(root.innerHTML, text), len);
    };
    const refresh = () => {
      const range = quill.getSelection();
      const f = range ? quill.getFormat(range) : {};
      setActive({
        bold: f.bold === true,
        italic: f.italic === true,
        underline: f.underline === true,
        strike: f.strike === true,
        list: typeof f.list === 'string' ? f.list : null,
        indent: clampIndent(f.indent),
        link: typeof f.link === 'string' ? f.link : null,
        canUndo: history.stack.undo.length > 0,
        canRedo: history.stack.redo.length > 0,
      });
    };
    refreshRef.current = refresh;
    report();
    refresh();
    quill.on('text-change', report);
    quill.on('editor-change', refresh);
    return () => {
      quill.off('text-change', report);
      quill.off('editor-change', refresh);
      quillRef.current = null;
      refreshRef.current = () => {};
      host.remove();
    };
    // The editor is made once per mount; later changes of the announcement do not reset what is being typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see the line above
  }, []);

  const quill = () => quillRef.current;

  const toggleMark = (mark: Mark) => {
    const q = quill();
    if (!q) return;
    q.format(mark, !active[mark], 'user');
    refreshRef.current();
  };

  const toggleList = (kind: 'ordered' | 'bullet') => {
    const q = quill();
    if (!q) return;
    q.format('list', active.list === kind ? false : kind, 'user');
    refreshRef.current();
  };

  const indent = (value: '+1' | '-1') => {
    const q = quill();
    if (!q) return;
    q.format('indent', value, 'user');
    refreshRef.current();
  };

  const history = () => quill()?.getModule('history') as History | undefined;

  const openLink = () => {
    const q = quill();
    if (!q) return;
    savedRange.current = q.getSelection(true);
    setLinkText(active.link ?? '');
    setLinkError(false);
    setLinkOpen(true);
  };

  const closeLink = () => {
    setLinkOpen(false);
    const q = quill();
    const range = savedRange.current;
    if (q && range) q.setSelection(range.index, range.length, 'user');
  };

  const handleLinkSubmit = (e: FormEvent) => {
    e.preventDefault();
    const q = quill();
    const url = normalizeLink(linkText);
    if (!q) return;
    if (!url) {
      setLinkError(true);
      return;
    }
    const range = savedRange.current ?? { index: q.getLength() - 1, length: 0 };
    if (range.length > 0) {
      q.formatText(range.index, range.length, 'link', url, 'user');
      savedRange.current = { index: range.index + range.length, length: 0 };
    } else if (active.link) {
      q.format('link', url, 'user');
    } else {
      q.insertText(range.index, url, { link: url }, 'user');
      savedRange.current = { index: range.index + url.length, length: 0 };
    }
    closeLink();
  };

  const handleUnlink = () => {
    const q = quill();
    const range = savedRange.current;
    if (q && range) {
      if (range.length > 0) q.formatText(range.index, range.length, 'link', false, 'user');
      else q.format('link', false, 'user');
    }
    closeLink();
  };

  const over = length > ANNOUNCEMENT_MAX;

  return (
    <div className="gm-notice-editor">
      <div className="gm-editor-toolbar" role="toolbar" aria-label={t('group.notice.toolbar')}>
        <ToolButton label={t('group.notice.bold')} pressed={active.bold} onClick={() => toggleMark('bold')}>
          <b>B</b>
        </ToolButton>
        <ToolButton label={t('group.notice.italic')} pressed={active.italic} onClick={() => toggleMark('italic')}>
          <i>I</i>
        </ToolButton>
        <ToolButton
          label={t('group.notice.underline')}
          pressed={active.underline}
          onClick={() => toggleMark('underline')}
        >
          <u>U</u>
        </ToolButton>
        <ToolButton label={t('group.notice.strike')} pressed={active.strike} onClick={() => toggleMark('strike')}>
          <s>S</s>
        </ToolButton>
        <ToolButton
          label={t('group.notice.orderedList')}
          pressed={active.list === 'ordered'}
          onClick={() => toggleList('ordered')}
        >
          <span aria-hidden="true">1.</span>
        </ToolButton>
        <ToolButton
          label={t('group.notice.bulletList')}
          pressed={active.list === 'bullet'}
          onClick={() => toggleList('bullet')}
        >
          <UnorderedListOutline aria-hidden="true" />
        </ToolButton>
        <ToolButton label={t('group.notice.outdent')} disabled={active.indent === 0} onClick={() => indent('-1')}>
          <span aria-hidden="true">⇤</span>
        </ToolButton>
        <ToolButton
          label={t('group.notice.indent')}
          disabled={active.indent >= INDENT_LEVELS.length}
          onClick={() => indent('+1')}
        >
          <span aria-hidden="true">⇥</span>
        </ToolButton>
        <ToolButton label={t('group.notice.link')} pressed={active.link !== null} onClick={openLink}>
          <LinkOutline aria-hidden="true" />
        </ToolButton>
        <ToolButton label={t('group.notice.undo')} disabled={!active.canUndo} onClick={() => history()?.undo()}>
          <span aria-hidden="true">↶</span>
        </ToolButton>
        <ToolButton label={t('group.notice.redo')} disabled={!active.canRedo} onClick={() => history()?.redo()}>
          <span aria-hidden="true">↷</span>
        </ToolButton>
      </div>
      {linkOpen && (
        <form className="gm-editor-link" onSubmit={handleLinkSubmit} noValidate>
          <label htmlFor={linkInputId} className="gm-editor-link-label">
            {t('group.notice.linkAddress')}
          </label>
          <input
            id={linkInputId}
            className="gm-editor-link-input"
            type="url"
            inputMode="url"
            autoFocus
            value={linkText}
            placeholder="https://"
            aria-invalid={linkError || undefined}
            aria-describedby={linkError ? `${linkInputId}-error` : undefined}
            onChange={(e) => {
              setLinkText(e.target.value);
              setLinkError(false);
            }}
            onKeyDown={(e) => {
              if (e.key !== 'Escape') return;
              // The link field's Escape closes the field only, not the panel or page around it.
              e.preventDefault();
              closeLink();
            }}
          />
          {linkError && (
            <p className="gm-editor-link-error" id={`${linkInputId}-error`} role="alert">
              {t('group.notice.linkRefused')}
            </p>
          )}
          <div className="gm-editor-link-actions">
            {active.link && (
              <button type="button" className="button button-link" onClick={handleUnlink}>
                {t('group.notice.unlink')}
              </button>
            )}
            <button type="button" className="button button-link" onClick={closeLink}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="button button-link">
              {t('common.confirm')}
            </button>
          </div>
        </form>
      )}
      <div className="gm-editor-host" ref={hostRef} />
      <p className={`gm-editor-count${over ? ' gm-editor-count-over' : ''}`} id={counterId}>
        {t('group.notice.count', { length, max: ANNOUNCEMENT_MAX })}
      </p>
    </div>
  );
}
