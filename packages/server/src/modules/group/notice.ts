import type sanitize from 'sanitize-html';
import { ANNOUNCEMENT_MAX, EDITOR } from '@sparrow/protocol';
import { onFirstUse } from '../../lib/lazy';
import { plainText } from '../../lib/text';

/** sanitize-html and its HTML parser, for the first announcement written. */
const loadSanitizer = onFirstUse<typeof sanitize>('sanitize-html');

const INDENT = /^ql-indent-([1-9][0-9]*)$/;

/**
 * Announcement HTML as the editor may produce it, and nothing else: bold, italic, underline,
 * strike, lists, paragraphs, links with http/https/mailto/tel only, at most 8 indent levels.
 */
export function sanitizeNotice(html: string): string {
  return loadSanitizer()(html, {
    allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'ol', 'ul', 'li', 'a'],
    allowedAttributes: { a: ['href', 'target', 'rel'], p: ['class'], li: ['class', 'data-list'] },
    allowedSchemes: [...EDITOR.linkProtocols],
    allowedSchemesAppliedToAttributes: ['href'],
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } }),
    },
    allowedClasses: { p: [INDENT], li: [INDENT] },
  })
    .replace(/class="ql-indent-(\d+)"/g, (all, n: string) => (Number(n) <= EDITOR.maxIndent ? all : ''))
    .replace(/data-list="(?!bullet"|ordered")[^"]*"/g, '')
    .replace(/(\S)\s+>/g, '$1>');
}

/** The announcement's text, for its length limit and for the message that announces it. */
export function noticeText(html: string): string {
  return plainText(html);
}

export function noticeTooLong(html: string): boolean {
  return noticeText(html).length > ANNOUNCEMENT_MAX;
}
