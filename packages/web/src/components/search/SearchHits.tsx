import { messagePreview, type Message, type SearchHit } from '@sparrow/protocol';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { translate } from '../../i18n';
import { formatClock, formatDate } from '../../lib/relative-time';
import { paths, withQuery } from '../../nav/paths';
import { Avatar } from '../Avatar';
import { cutAt, wordSpans, type Span } from './hits';
import { useRemark } from '../../stores/remarks';

/** `text` with the `[start, end)` spans marked. */
export function Marked({ text, spans }: { text: string; spans: readonly Span[] }) {
  return (
    <>
      {cutAt(text, spans).map((part) =>
        part.marked ? <mark key={part.at}>{part.text}</mark> : <span key={part.at}>{part.text}</span>,
      )}
    </>
  );
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
    case 'record':
      return { label: translate('preview.record'), text: name(ext.title) };
    case 'chain':
      return {
        label: translate('preview.chain', { title: '' }).trim(),
        text: [name(ext.title), name(ext.example)].filter(Boolean).join(' · '),
      };
    case 'poll':
      return { label: translate('preview.poll', { question: '' }).trim(), text: name(ext.question) };
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
  const name = useRemark(hit.fromUser.id) || hit.fromUser.displayName || hit.fromUser.realname;
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
