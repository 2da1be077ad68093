import { messagePreview, type Message, type SearchHit } from '@sparrow/protocol';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths, withQuery } from '../../app/paths';
import { translate } from '../../i18n';
import { formatClock, formatDate } from '../../lib/relative-time';
import { Avatar } from '../Avatar';

export type Span = readonly [number, number];

/** `text` with the `[start, end)` spans marked; spans outside the text or overlapping are skipped. */
export function Marked({ text, spans }: { text: string; spans: readonly Span[] }) {
  const parts: ReactNode[] = [];
  let from = 0;
  for (const [start, end] of spans) {
    if (start < from || end <= start || end > text.length) continue;
    if (start > from) parts.push(text.slice(from, start));
    parts.push(<mark key={start}>{text.slice(start, end)}</mark>);
    from = end;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}

/**
 * Where the words of a search occur in `text`, case ignored, as sorted `[start, end)` spans: for
 * the names of files, places and cards, which the server's offsets (into `content`) do not cover.
 */
export function wordSpans(text: string, words: string): Span[] {
  const lower = text.toLowerCase();
  const spans: Array<[number, number]> = [];
  for (const word of new Set(words.toLowerCase().split(/\s+/u).filter(Boolean))) {
    for (let i = lower.indexOf(word); i >= 0; i = lower.indexOf(word, i + word.length)) {
      spans.push([i, i + word.length]);
    }
  }
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  return spans;
}

/** The words a message was found by, as the hit shows them: a text, or the kind and its name. */
function hitText(m: Message): { label: string; text: string } | null {
  const name = (v: unknown) => (typeof v === 'string' ? v : '');
  const ext = m.extends as Record<string, unknown>;
  switch (m.type) {
    case 'text':
      return null;
    case 'file':
      return { label: translate('preview.file', { name: '' }).trim(), text: name(ext.name) };
    case 'location':
      return {
        label: translate('preview.location', { name: '' }).trim(),
        text: [name(ext.name), name(ext.address)].filter(Boolean).join(' · '),
      };
    case 'contact':
      return { label: translate('preview.contact', { name: '' }).trim(), text: name(ext.displayName) };
    case 'emoji':
    case 'event':
    case 'image':
    case 'video':
    case 'voice':
    case 'webrtc':
      return { label: messagePreview(m, translate), text: '' };
  }
}

/** A found message's words with the matches marked. */
export function HitContent({ hit, words }: { hit: Message & Partial<Pick<SearchHit, 'highlight'>>; words: string }) {
  const other = hitText(hit);
  if (!other) return <Marked text={hit.content} spans={hit.highlight ?? wordSpans(hit.content, words)} />;
  return (
    <>
      {other.label && <span className="search-hit-kind">{other.label} </span>}
      <Marked text={other.text} spans={wordSpans(other.text, words)} />
    </>
  );
}

/** The sender, time and marked words of a found message, as a row that opens the chat at it. */
export function HitRow({ hit, chatKey, words }: { hit: Message & Partial<SearchHit>; chatKey: string; words: string }) {
  const { i18n } = useTranslation();
  const name = hit.fromUser.displayName || hit.fromUser.realname;
  const when = `${formatDate(hit.sendTime, i18n.language, Date.now())} ${formatClock(hit.sendTime, i18n.language)}`;
  return (
    <li>
      <Link className="record-row search-hit" to={chatAt(chatKey, hit.msg_id)}>
        <Avatar src={hit.fromUser.avatar} name={name} alt="" size={36} />
        <span className="record-main">
          <span className="record-line">
            <span className="record-name">{name}</span>
            <time className="record-time" dateTime={new Date(hit.sendTime).toISOString()}>
              {when}
            </time>
          </span>
          <span className="record-content">
            <HitContent hit={hit} words={words} />
          </span>
        </span>
      </Link>
    </li>
  );
}

/** The chat of a conversation opened at one of its messages. */
export const chatAt = (key: string, msgId: number) => withQuery(paths.chat, { id: key, msg_id: msgId });
