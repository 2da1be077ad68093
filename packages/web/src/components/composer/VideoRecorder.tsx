import { VIDEO_MAX_S } from '@sparrow/protocol';
import { CheckOutline, CloseOutline, UndoOutline } from 'antd-mobile-icons';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { ContactKey } from '../../lib/conversation-list';
import { MediaCapture, type CaptureResult } from '../../lib/media-recorder';
import { formatClockDuration } from '../../lib/media-url';
import { feedback } from '../feedback';
import { sendImages, sendRecordedVideo } from './send-media';
import './composer.css';

type Phase = 'opening' | 'ready' | 'recording' | 'review' | 'photo';

/** A press on the shutter held this long records a video; a shorter one takes a photo. */
export const SHUTTER_HOLD_MS = 350;

const RING_R = 36;
const RING_LENGTH = 2 * Math.PI * RING_R;

/**
 * The camera, as WeChat's 拍摄: tap the shutter for a photo, hold it to record a video that stops
 * when it is let go, or by itself at 60 s (docs/product.md §5, VIDEO_MAX_S). For a keyboard, the shutter takes
 * a photo and a button beside it starts and stops a video. A recording under a second is refused
 * and the camera stays open. The photo or clip is shown back to be sent or taken again.
 */
export function VideoRecorder({ chatKey, onClose }: { chatKey: ContactKey; onClose: () => void }) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<Phase>('opening');
  const [elapsed, setElapsed] = useState(0);
  const [clip, setClip] = useState<{ result: CaptureResult; url: string } | null>(null);
  const [photo, setPhoto] = useState<{ blob: Blob; url: string } | null>(null);
  /** The hold timer of a press on the shutter, and whether the press turned into a recording. */
  const press = useRef<{ timer: ReturnType<typeof setTimeout> | null; recording: boolean } | null>(null);
  const capture = useRef<MediaCapture | null>(null);
  const live = useRef<HTMLVideoElement>(null);
  const dialog = useRef<HTMLDivElement>(null);

  const openCamera = useCallback(async () => {
    setPhase('opening');
    try {
      const c = await MediaCapture.open('video');
      if (capture.current === null && dialog.current) {
        capture.current = c;
        if (live.current) live.current.srcObject = c.stream;
        setPhase('ready');
      } else {
        c.cancel();
      }
    } catch {
      feedback.toast(t('media.video.noCamera'));
      onClose();
    }
  }, [onClose, t]);

  useEffect(() => {
    void openCamera();
    const previous = document.activeElement as HTMLElement | null;
    dialog.current?.focus();
    return () => {
      capture.current?.cancel();
      capture.current = null;
      previous?.focus?.();
    };
  }, [openCamera]);

  useEffect(() => {
    if (!clip) return;
    return () => URL.revokeObjectURL(clip.url);
  }, [clip]);

  useEffect(() => {
    if (!photo) return;
    return () => URL.revokeObjectURL(photo.url);
  }, [photo]);

  useEffect(() => {
    if (phase !== 'recording') return;
    const timer = setInterval(() => setElapsed(capture.current?.elapsedMs ?? 0), 100);
    return () => clearInterval(timer);
  }, [phase]);

  const finished = (result: CaptureResult) => {
    capture.current = null;
    if (live.current) live.current.srcObject = null;
    if (result.verdict === 'tooShort') {
      feedback.toast(t('media.record.tooShort'));
      void openCamera();
      return;
    }
    if (result.verdict === 'tooLong') {
      feedback.toast(t('media.video.tooLong', { max: VIDEO_MAX_S }));
      void openCamera();
      return;
    }
    setClip({ result, url: URL.createObjectURL(result.blob) });
    setPhase('review');
  };

  /** Starts a video, or stops the one recording. */
  const toggleVideo = () => {
    const c = capture.current;
    if (!c) return;
    if (phase === 'ready') {
      setElapsed(0);
      c.start((result) => void result.then(finished, () => undefined));
      setPhase('recording');
    } else if (phase === 'recording') {
      void c.stop().then(finished, () => undefined);
    }
  };

  /** The frame the camera shows now (the first one, when none has been drawn yet), as a JPEG to review. */
  const takePhoto = async () => {
    const view = live.current;
    if (!view || !capture.current || phase !== 'ready') return;
    if (!view.videoWidth) await new Promise((r) => view.addEventListener('loadeddata', r, { once: true }));
    if (!capture.current) return;
    const canvas = document.createElement('canvas');
    canvas.width = view.videoWidth;
    canvas.height = view.videoHeight;
    canvas.getContext('2d')?.drawImage(view, 0, 0);
    canvas.toBlob(
      (blob) => {
        if (!blob) return;
        capture.current?.cancel();
        capture.current = null;
        setPhoto({ blob, url: URL.createObjectURL(blob) });
        setPhase('photo');
      },
      'image/jpeg',
      0.9,
    );
  };

  const pressDown = () => {
    if (phase !== 'ready') return;
    press.current = {
      recording: false,
      timer: setTimeout(() => {
        if (!press.current) return;
        press.current = { timer: null, recording: true };
        toggleVideo();
      }, SHUTTER_HOLD_MS),
    };
  };

  const pressUp = () => {
    const p = press.current;
    press.current = null;
    if (!p) return;
    if (p.timer !== null) {
      clearTimeout(p.timer);
      void takePhoto();
    } else if (p.recording) toggleVideo();
  };

  const retake = () => {
    setClip(null);
    setPhoto(null);
    void openCamera();
  };

  const send = () => {
    if (clip) void sendRecordedVideo(chatKey, clip.result);
    else if (photo) void sendImages(chatKey, [new File([photo.blob], 'photo.jpg', { type: 'image/jpeg' })]);
    else return;
    onClose();
  };

  const progress = Math.min(1, elapsed / (VIDEO_MAX_S * 1000));
  return createPortal(
    <div
      ref={dialog}
      className="camera"
      role="dialog"
      aria-modal="true"
      aria-label={t('media.video.camera')}
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      {phase === 'photo' && photo ? (
        <img className="camera-view" src={photo.url} alt={t('media.video.photoReview')} />
      ) : phase === 'review' && clip ? (
        <video
          className="camera-view"
          src={clip.url}
          autoPlay
          loop
          playsInline
          controls={false}
          aria-label={t('media.video.review')}
        />
      ) : (
        <video ref={live} className="camera-view" autoPlay muted playsInline aria-hidden="true" />
      )}
      <button type="button" className="camera-close" aria-label={t('common.close')} onClick={onClose}>
        <CloseOutline aria-hidden="true" />
      </button>
      {phase === 'recording' && (
        <p className="camera-time" role="timer" aria-live="off">
          {formatClockDuration(elapsed / 1000)} / {formatClockDuration(VIDEO_MAX_S)}
        </p>
      )}
      {phase === 'review' || phase === 'photo' ? (
        <div className="camera-review">
          <button
            type="button"
            className="camera-round camera-retake"
            onClick={retake}
            aria-label={t('media.video.retake')}
          >
            <UndoOutline aria-hidden="true" />
          </button>
          <button type="button" className="camera-round camera-send" onClick={send} aria-label={t('chat.send')}>
            <CheckOutline aria-hidden="true" />
          </button>
        </div>
      ) : (
        <div className="camera-controls">
          <p className="camera-hint">
            {phase === 'recording' ? t('media.video.releaseToStop') : t('media.video.tapOrHold')}
          </p>
          <button
            type="button"
            className={`camera-shutter${phase === 'recording' ? ' camera-shutter-on' : ''}`}
            disabled={phase === 'opening'}
            aria-label={t('media.video.photo')}
            onPointerDown={pressDown}
            onPointerUp={pressUp}
            onPointerCancel={pressUp}
            onPointerLeave={pressUp}
            onContextMenu={(e) => e.preventDefault()}
            onClick={(e) => {
              // A keyboard's Enter or Space: a photo (a pointer's press was handled above).
              if (e.detail === 0) void takePhoto();
            }}
          >
            <svg viewBox="0 0 80 80" aria-hidden="true">
              <circle className="camera-ring-bg" cx="40" cy="40" r={RING_R} />
              <circle
                className="camera-ring"
                cx="40"
                cy="40"
                r={RING_R}
                strokeDasharray={RING_LENGTH}
                strokeDashoffset={RING_LENGTH * (1 - progress)}
              />
            </svg>
            <span className="camera-dot" />
          </button>
          <button type="button" className="camera-video-toggle" disabled={phase === 'opening'} onClick={toggleVideo}>
            {phase === 'recording' ? t('media.video.stop') : t('media.video.record')}
          </button>
        </div>
      )}
    </div>,
    document.body,
  );
}
