import {
  CameraOutline,
  EnvironmentOutline,
  FolderOutline,
  LeftOutline,
  PhoneFill,
  PictureOutline,
  SmileOutline,
  UnorderedListOutline,
  CheckCircleOutline,
  UserContactOutline,
  VideoOutline,
} from 'antd-mobile-icons';
import { lazy, Suspense, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { startCall } from '../../call/start';
import type { ContactKey } from '../../lib/conversation-list';
import { canCapture } from '../../lib/media-recorder';
import { useConfig } from '../../stores/config';
import { contactsStore } from '../../stores/contacts';
import { feedback } from '../feedback';
import { ChainStartSheet } from '../chain/ChainStartSheet';
import { ContactCardPicker } from './ContactCardPicker';
import { sendFile, sendImages, sendLocation } from './send-media';
import { StickerPanel } from './StickerPanel';
import { VideoRecorder } from './VideoRecorder';
import './composer.css';

const LocationPicker = lazy(() => import('../location/LocationPicker'));
const PollSheet = lazy(() => import('../poll/PollSheet'));

type Overlay = 'camera' | 'location' | 'card' | 'chain' | 'poll' | null;

function Tile({ icon, label, onClick }: { icon: ReactNode; label: string; onClick: () => void }) {
  return (
    <li>
      <button type="button" className="more-tile" onClick={onClick}>
        <span className="more-icon" aria-hidden="true">
          {icon}
        </span>
        <span className="more-label">{label}</span>
      </button>
    </li>
  );
}

/** The person a chat is with, when it is a one-to-one chat with someone else. */
function peerOf(chatKey: ContactKey): number | null {
  const id = Number(chatKey);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * The input bar's "+" panel, WeChat style: album (pictures and videos, several at once), camera
 * (video up to 60 s), location, contact card, file and my stickers; in a group, 接龙 (a sign-up
 * chain) and 投票 (a poll); in a one-to-one chat, voice and video calls when the server allows them (chatInfo.webrtc).
 */
export function MorePanel({ chatKey }: { chatKey: ContactKey }) {
  const { t } = useTranslation();
  const [overlay, setOverlay] = useState<Overlay>(null);
  const [view, setView] = useState<'grid' | 'stickers'>('grid');
  const album = useRef<HTMLInputElement>(null);
  const files = useRef<HTMLInputElement>(null);
  const close = () => setOverlay(null);
  const callsOn = useConfig((s) => s.config?.chatInfo.webrtc === 1);
  const peer = callsOn ? peerOf(chatKey) : null;
  const call = (type: 0 | 1) => {
    if (peer === null) return;
    const row = contactsStore.getState().rows[chatKey];
    startCall({ id: peer, name: row?.displayName ?? '', avatar: row?.avatar ?? '' }, type);
  };

  if (view === 'stickers') {
    return (
      <div className="more-panel">
        <StickerPanel
          chatKey={chatKey}
          header={
            <button
              type="button"
              className="more-back"
              aria-label={t('media.more.back')}
              onClick={() => setView('grid')}
            >
              <LeftOutline aria-hidden="true" /> {t('media.more.title')}
            </button>
          }
        />
      </div>
    );
  }

  return (
    <div className="more-panel" role="group" aria-label={t('media.more.title')}>
      <ul className="more-grid">
        <Tile icon={<PictureOutline />} label={t('media.more.album')} onClick={() => album.current?.click()} />
        <Tile
          icon={<CameraOutline />}
          label={t('media.more.camera')}
          onClick={() => (canCapture() ? setOverlay('camera') : feedback.toast(t('media.video.unsupported')))}
        />
        <Tile icon={<EnvironmentOutline />} label={t('media.more.location')} onClick={() => setOverlay('location')} />
        <Tile icon={<UserContactOutline />} label={t('media.more.card')} onClick={() => setOverlay('card')} />
        <Tile icon={<FolderOutline />} label={t('media.more.file')} onClick={() => files.current?.click()} />
        <Tile icon={<SmileOutline />} label={t('media.more.stickers')} onClick={() => setView('stickers')} />
        {chatKey.startsWith('group-') && (
          <Tile icon={<UnorderedListOutline />} label={t('chain.tile')} onClick={() => setOverlay('chain')} />
        )}
        {chatKey.startsWith('group-') && (
          <Tile icon={<CheckCircleOutline />} label={t('poll.tile')} onClick={() => setOverlay('poll')} />
        )}
        {peer !== null && (
          <>
            <Tile icon={<PhoneFill />} label={t('call.voice')} onClick={() => call(0)} />
            <Tile icon={<VideoOutline />} label={t('call.video')} onClick={() => call(1)} />
          </>
        )}
      </ul>
      <input
        ref={album}
        type="file"
        accept="image/*,video/*"
        multiple
        hidden
        aria-label={t('media.more.album')}
        onChange={(e) => {
          const picked = Array.from(e.target.files ?? []);
          e.target.value = '';
          void sendImages(chatKey, picked);
        }}
      />
      <input
        ref={files}
        type="file"
        multiple
        hidden
        aria-label={t('media.more.file')}
        onChange={(e) => {
          const picked = Array.from(e.target.files ?? []);
          e.target.value = '';
          for (const file of picked) sendFile(chatKey, file);
        }}
      />
      {overlay === 'camera' && <VideoRecorder chatKey={chatKey} onClose={close} />}
      {overlay === 'card' && <ContactCardPicker chatKey={chatKey} onClose={close} />}
      {overlay === 'chain' && <ChainStartSheet chatKey={chatKey} onClose={close} />}
      {overlay === 'poll' && (
        <Suspense fallback={null}>
          <PollSheet toContactId={chatKey as `group-${number}`} onClose={close} />
        </Suspense>
      )}
      {overlay === 'location' && (
        <Suspense fallback={null}>
          <LocationPicker
            onClose={close}
            onSend={(place) => {
              sendLocation(chatKey, place);
              close();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
