import { EDITOR } from '@sparrow/protocol';
import DOMPurify from 'dompurify';

/**
 * Announcements arrive already sanitized by the server; they pass through DOMPurify once more
 * before they touch the page, allowing what the editor makes and nothing else.
 */
const purify = DOMPurify(window);

const INDENT_CLASS = new RegExp(`^ql-indent-[1-${EDITOR.maxIndent}]$`);
const LINK = new RegExp(`^(?:${EDITOR.linkProtocols.join('|')}):`, 'i');

purify.addHook('uponSanitizeAttribute', (_node, data) => {
  if (data.attrName === 'class') {
    data.attrValue = data.attrValue
      .split(/\s+/)
      .filter((c) => INDENT_CLASS.test(c))
      .join(' ');
    if (!data.attrValue) data.keepAttr = false;
  }
  if (data.attrName === 'data-list' && data.attrValue !== 'bullet' && data.attrValue !== 'ordered') {
    data.keepAttr = false;
  }
  if (data.attrName === 'href' && !LINK.test(data.attrValue.trim())) data.keepAttr = false;
});

purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

const CONFIG = {
  ALLOWED_TAGS: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'ol', 'ul', 'li', 'a'],
  ALLOWED_ATTR: ['href', 'target', 'rel', 'class', 'data-list'],
  ALLOW_DATA_ATTR: false,
};

/** The announcement's HTML, safe to put in the page. */
export function safeNoticeHtml(html: string): string {
  return purify.sanitize(html, CONFIG);
}

/** The announcement's text, one line per paragraph or list item, for previews and banners. */
export function noticePlainText(html: string): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(safeNoticeHtml(html), 'text/html');
  const lines: string[] = [];
  const blocks = doc.body.querySelectorAll('p, li');
  if (blocks.length === 0) return (doc.body.textContent ?? '').trim();
  blocks.forEach((b) => lines.push((b.textContent ?? '').trim()));
  return lines.filter(Boolean).join('\n');
}
