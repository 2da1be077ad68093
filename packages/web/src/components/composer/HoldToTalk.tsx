import { AudioOutline, UndoOutline } from 'antd-mobile-icons';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { ContactKey } from '../../lib/conversation-list';
import { canCapture, MediaCapture, type CaptureResult } from '../../lib/media-recorder';
import { VOICE_COUNTDOWN_S, VOICE_MAX_S } from '../../lib/media-rules';
import { feedback } from '../feedback';
import { sendVoice } from './send-media';
import './composer.css';

/** Sliding this far up (px) from where the finger went down turns release into cancel. */
const CANCEL_SLIDE_PX = 60;
/** How long "too short" stays on screen. */
const TOO_SHORT_MS = 1000;

type Phase = 'idle' | 'opening' | 'recording' | 'tooShort';

/**
 * WeChat's hold-to-talk: press and hold to record, release to send, slide up and release to
 * cancel; under a second is "too short" and nothing is sent; at a minute it sends by itself.
 * Space or Enter held down does the same from the keyboard, Escape cancels.
 */
export function HoldToTalk({ chatKey }: { chatKey: ContactKey }) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<Phase>('idle');
  const [cancelling, setCancelling] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const capture = useRef<MediaCapture | null>(null);
  /** The press is over (released before the microphone opened, say). */
  const released = useRef(true);
  const startY = useRef(0);
  const cancelRef = useRef(false);

  useEffect(() => () => capture.current?.cancel(), []);

  useEffect(() => {
    if (phase !== 'recording') return;
    const timer = setInterval(() => setElapsed(capture.current?.elapsedMs ?? 0), 200);
    return () => clearInterval(timer);
  }, [phase]);

  useEffect(() => {
    if (phase !== 'tooShort') return;
    const timer = setTimeout(() => setPhase('idle'), TOO_SHORT_MS);
    return () => clearTimeout(timer);
  }, [phase]);

  const finish = (result: CaptureResult) => {
    capture.current = null;
    if (result.verdict === 'tooShort') {
      setPhase('tooShort');
      return;
    }
    setPhase('idle');
    if (result.verdict === 'ok') sendVoice(chatKey, result);
  };

  const begin = async () => {
    if (!canCapture()) {
      feedback.toast(t('media.voice.unsupported'));
      return;
    }
    released.current = false;
    cancelRef.current = false;
    setCancelling(false);
    setElapsed(0);
    setPhase('opening');
    let c: MediaCapture;
    try {
      c = await MediaCapture.open('voice');
    } catch {
      setPhase('idle');
      feedback.toast(t('media.voice.noMicrophone'));
      return;
    }
    if (released.current) {
      // Let go before the microphone was ready: a tap, which is too short to be a message.
      c.cancel();
      setPhase(cancelRef.current ? 'idle' : 'tooShort');
      return;
    }
    capture.current = c;
    c.start((result) => {
      // A minute is the longest clip: it goes as it is, the finger may still be down.
      released.current = true;
      void result.then(finish, () => setPhase('idle'));
    });
    setPhase('recording');
  };

  const end = () => {
    if (released.current) return;
    released.current = true;
    const c = capture.current;
    if (!c) return;
    if (cancelRef.current) {
      c.cancel();
      capture.current = null;
      setPhase('idle');
      return;
    }
    void c.stop().then(finish, () => setPhase('idle'));
  };

  const setCancel = (value: boolean) => {
    cancelRef.current = value;
    setCancelling(value);
  };

  const onPointerDown = (e: PointerEvent<HTMLButtonElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    startY.current = e.clientY;
    void begin();
  };
  const onPointerMove = (e: PointerEvent<HTMLButtonElement>) => {
    if (released.current) return;
    setCancel(startY.current - e.clientY > CANCEL_SLIDE_PX);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      if (!e.repeat && released.current) void begin();
    } else if (e.key === 'Escape' && !released.current) {
      e.preventDefault();
      setCancel(true);
      end();
    }
  };
  const onKeyUp = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      end();
    }
  };

  const active = phase === 'opening' || phase === 'recording';
  const left = Math.max(0, Math.ceil(VOICE_MAX_S - elapsed / 1000));
  return (
    <>
      <button
        type="button"
        className={`talk${active ? ' talk-active' : ''}`}
        aria-label={t('media.voice.hold')}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={end}
        onPointerCancel={() => {
          setCancel(true);
          end();
        }}
        onContextMenu={(e) => e.preventDefault()}
        onKeyDown={onKeyDown}
        onKeyUp={onKeyUp}
      >
        {active ? t('media.voice.release') : t('media.voice.hold')}
      </button>
      {phase !== 'idle' &&
        createPortal(
          <div className="talk-overlay">
            <div
              className={`talk-panel${cancelling ? ' talk-panel-cancel' : ''}`}
              role="status"
              aria-live="assertive"
              data-phase={phase}
            >
              {phase === 'tooShort' ? (
                <>
                  <span className="talk-alert" aria-hidden="true">
                    !
                  </span>
                  <span className="talk-text">{t('media.record.tooShort')}</span>
                </>
              ) : cancelling ? (
                <>
                  <UndoOutline className="talk-icon" aria-hidden="true" />
                  <span className="talk-text talk-text-cancel">{t('media.voice.releaseToCancel')}</span>
                </>
              ) : (
                <>
                  <span className="talk-mic" aria-hidden="true">
                    <AudioOutline className="talk-icon" />
                    <span className="talk-level">
                      <i />
                      <i />
                      <i />
                      <i />
                    </span>
                  </span>
                  {phase === 'recording' && left <= VOICE_COUNTDOWN_S ? (
                    <span className="talk-text">{t('media.voice.countdown', { count: left })}</span>
                  ) : (
                    <span className="talk-text">{t('media.voice.slideToCancel')}</span>
                  )}
                </>
              )}
            </div>
          </div>,
          document.body,
        )}
    </>
  );
}
