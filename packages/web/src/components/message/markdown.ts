import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

/*
 * A robot's markdown (群机器人, `extends.markdown` 1) as HTML. Its own chunk, loaded by
 * MarkdownText on the first such message: markdown-it stays out of every other bundle.
 */

/** The links a message may open (linkify.ts's, the product's allowed protocols). */
const LINK = /^(?:https?|mailto|tel):/i;

const md = new MarkdownIt({ html: false, linkify: true, breaks: true });
// A picture would be fetched from anywhere the sender names; a robot posts images as image messages.
md.disable('image');
md.validateLink = (url) => LINK.test(url.trim());
md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  tokens[idx]!.attrSet('target', '_blank');
  tokens[idx]!.attrSet('rel', 'noopener noreferrer');
  return self.renderToken(tokens, idx, options);
};
// A message's headings are not the page's: bold lines, kept out of the page's outline.
md.renderer.rules.heading_open = (tokens, idx) => `<p class="md-heading md-${tokens[idx]!.tag}">`;
md.renderer.rules.heading_close = () => '</p>\n';

/** What markdown-it makes of a source: every tag of the source escaped (html off), links checked. */
export function markdownHtml(source: string): string {
  return md.render(source);
}

const ALLOWED = {
  ALLOWED_TAGS: [
    'p',
    'br',
    'strong',
    'em',
    's',
    'a',
    'ul',
    'ol',
    'li',
    'blockquote',
    'code',
    'pre',
    'hr',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  ALLOWED_ATTR: ['href', 'target', 'rel', 'class', 'start'],
  ALLOW_DATA_ATTR: false,
};
const HEADING_CLASS = /^md-heading md-h[1-6]$/;

let purify: ReturnType<typeof DOMPurify> | null = null;

/** The allowlist markdown-it's output passes before it touches the page, as announcements do (group/notice.ts). */
function sanitizer(): ReturnType<typeof DOMPurify> {
  if (purify) return purify;
  purify = DOMPurify(window);
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === 'href' && !LINK.test(data.attrValue.trim())) data.keepAttr = false;
    if (data.attrName === 'class' && !HEADING_CLASS.test(data.attrValue)) data.keepAttr = false;
  });
  return purify;
}

/** A markdown source as HTML safe to put in the page. */
export function renderMarkdown(source: string): string {
  return sanitizer().sanitize(markdownHtml(source), ALLOWED);
}
