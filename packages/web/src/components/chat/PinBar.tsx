import { messagePreview, type PinnedMessage } from '@sparrow/protocol';
import { UnorderedListOutline } from 'antd-mobile-icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translate } from '../../i18n';
import { formatSeparator } from '../../lib/relative-time';
import { Sheet } from '../Sheet';
import './pins.css';

interface Props {
  pins: readonly PinnedMessage[];
  /** Whether I may take pins off (the list offers 取消置顶). */
  canUnpin: boolean;
  me: number;
  now: number;
  /** Opens the chat at a message. */
  onJump(msgId: number): void;
  onUnpin(msgId: number): void;
}

/** Who wrote a pinned message, as the bar names them. */
function senderOf(pin: PinnedMessage, me: number, you: string): string {
  const from = pin.message.fromUser;
  return from.id === me ? you : from.displayName || from.realname;
}

/**
 * The bar under a chat's title showing its newest pin (置顶消息): tap jumps to the message and
 * moves the bar on to the next pin, so that taps cycle through them; the list button opens every
 * pin, each with 取消置顶 for whoever may.
 */
export function PinBar({ pins, canUnpin, me, now, onJump, onUnpin }: Props) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const [listing, setListing] = useState(false);
  // Other pins start again at the newest; the same pins read again keep their place.
  const ids = pins.map((p) => p.message.msg_id).join(',');
  useEffect(() => setIndex(0), [ids]);
  if (pins.length === 0) return null;
  const at = Math.min(index, pins.length - 1);
  const pin = pins[at]!;
  const you = t('chat.me');
  const name = senderOf(pin, me, you);
  const preview = messagePreview(pin.message, translate);
  const several = pins.length > 1;

  return (
    <section className="pin-bar" aria-label={t('pins.bar')}>
      <button
        type="button"
        className="pin-bar-main"
        aria-label={t('pins.jump', { name, preview })}
        aria-describedby={several ? 'pin-bar-position' : undefined}
        onClick={() => {
          onJump(pin.message.msg_id);
          setIndex((at + 1) % pins.length);
        }}
      >
        <span className="pin-bar-ticks" aria-hidden="true">
          {pins.map((p, i) => (
            <span key={p.message.msg_id} className={i === at ? 'pin-bar-tick pin-bar-tick-on' : 'pin-bar-tick'} />
          ))}
        </span>
        <span className="pin-bar-text" aria-hidden="true">
          <span className="pin-bar-title">
            {t('pins.bar')}
            {several && <span className="pin-bar-count">{` ${at + 1}/${pins.length}`}</span>}
          </span>
          <span className="pin-bar-preview">{`${name}: ${preview}`}</span>
        </span>
      </button>
      {several && (
        <span id="pin-bar-position" className="visually-hidden">
          {t('pins.position', { index: at + 1, count: pins.length })}
        </span>
      )}
      <button
        type="button"
        className="pin-bar-all"
        aria-label={t('pins.list')}
        aria-haspopup="dialog"
        onClick={() => setListing(true)}
      >
        <UnorderedListOutline aria-hidden="true" />
      </button>
      {listing && (
        <PinListSheet
          pins={pins}
          canUnpin={canUnpin}
          me={me}
          now={now}
          onClose={() => setListing(false)}
          onJump={(id) => {
            setListing(false);
            onJump(id);
          }}
          onUnpin={onUnpin}
        />
      )}
    </section>
  );
}

/** Every pin of the chat, newest first: tap one to go to it; 取消置顶 for whoever may. */
function PinListSheet({
  pins,
  canUnpin,
  me,
  now,
  onClose,
  onJump,
  onUnpin,
}: Omit<Props, 'onJump'> & { onClose(): void; onJump(msgId: number): void }) {
  const { t, i18n } = useTranslation();
  const you = t('chat.me');
  return (
    <Sheet title={t('pins.listCount', { count: pins.length })} onClose={onClose}>
      <ul className="pin-list">
        {pins.map((p) => {
          const name = senderOf(p, me, you);
          const preview = messagePreview(p.message, translate);
          const by = p.pinned_by.user_id === me ? you : p.pinned_by.realname;
          return (
            <li key={p.message.msg_id} className="pin-list-item">
              <button type="button" className="pin-list-open" onClick={() => onJump(p.message.msg_id)}>
                <span className="pin-list-name">{name}</span>
                <span className="pin-list-preview">{preview}</span>
                <span className="pin-list-meta">
                  {t('pins.pinnedBy', { name: by, time: formatSeparator(p.pin_time, now, t, i18n.language) })}
                </span>
              </button>
              {canUnpin && (
                <button type="button" className="pin-list-unpin" onClick={() => onUnpin(p.message.msg_id)}>
                  {t('pins.unpin')}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </Sheet>
  );
}
