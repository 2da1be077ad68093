import type { Message } from '@sparrow/protocol';
import { linkify } from '../../lib/linkify';
import { ChainCard } from '../chain/ChainCard';
import { CallBubble } from '../message/CallBubble';
import { MarkdownText } from '../message/MarkdownText';
import { MediaMessage } from '../message/MediaMessage';
import { RecordCard } from './RecordCard';
import { PollCard } from '../poll/PollCard';

function Text({ content }: { content: string }) {
  return (
    <span className="msg-text">
      {linkify(content).map((p, i) =>
        p.kind === 'text' ? (
          p.text
        ) : (
          <a key={i} href={p.href} target="_blank" rel="noopener noreferrer">
            {p.text}
          </a>
        ),
      )}
    </span>
  );
}

/** What a message says, by its type (docs/protocol.md §2 message types). */
export function MessageContent({ message: m }: { message: Message }) {
  switch (m.type) {
    case 'text':
      // A robot's markdown (群机器人); its content is the source, as every text's is.
      return m.extends.markdown === 1 ? (
        <MarkdownText source={m.content} fallback={<Text content={m.content} />} />
      ) : (
        <Text content={m.content} />
      );
    case 'event':
      return <Text content={m.content} />;
    case 'emoji':
    case 'image':
    case 'video':
    case 'voice':
    case 'file':
    case 'location':
    case 'contact':
      return <MediaMessage message={m} />;
    case 'webrtc':
      return <CallBubble message={m} />;
    case 'record':
      return <RecordCard message={m} />;
    case 'poll':
      return <PollCard message={m} />;
    case 'chain':
      return <ChainCard message={m} />;
  }
}
