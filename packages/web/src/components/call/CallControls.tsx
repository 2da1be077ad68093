import { AudioMutedOutline, AudioOutline, LoopOutline, PhoneFill, SoundOutline, VideoOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { calls } from '../../call/store';
import type { CallSnapshot } from '../../call/session';

function ControlButton({
  icon,
  label,
  onClick,
  pressed,
  tone = 'plain',
}: {
  icon: ReactNode;
  label: string;
  onClick: () => void;
  pressed?: boolean;
  tone?: 'plain' | 'danger' | 'accept';
}) {
  return (
    <button type="button" className={`call-button call-button-${tone}`} onClick={onClick} aria-pressed={pressed}>
      <span className="call-button-icon" aria-hidden="true">
        {icon}
      </span>
      <span className="call-button-label">{label}</span>
    </button>
  );
}

/**
 * The buttons under a call: answer or refuse while it rings me; cancel while it rings them;
 * mute, speaker, camera and hang up once answered. The speaker shows only where the browser
 * lets a page choose the output, switching cameras only with two of them.
 */
export function CallControls({
  call,
  speaker,
  canChooseOutput,
}: {
  call: CallSnapshot;
  speaker: boolean;
  canChooseOutput: boolean;
}) {
  const { t } = useTranslation();
  const video = call.type === 1;
  const hasCamera = video && !call.cameraFailed && call.localStream !== null;

  if (call.phase === 'ended') return null;

  if (call.phase === 'incoming') {
    return (
      <div className="call-controls" role="group" aria-label={t('call.controls')}>
        <ControlButton
          icon={<PhoneFill className="call-icon-down" />}
          label={t('call.refuse')}
          tone="danger"
          onClick={calls.refuse}
        />
        <ControlButton
          icon={video ? <VideoOutline /> : <PhoneFill />}
          label={t('call.accept')}
          tone="accept"
          onClick={calls.accept}
        />
      </div>
    );
  }

  const mute = (
    <ControlButton
      icon={call.muted ? <AudioMutedOutline /> : <AudioOutline />}
      label={t('call.mute')}
      pressed={call.muted}
      onClick={calls.toggleMute}
    />
  );
  const speakerButton = canChooseOutput && (
    <ControlButton icon={<SoundOutline />} label={t('call.speaker')} pressed={speaker} onClick={calls.toggleSpeaker} />
  );
  const hangup = (
    <ControlButton
      icon={<PhoneFill className="call-icon-down" />}
      label={call.phase === 'outgoing' ? t('call.cancel') : t('call.hangup')}
      tone="danger"
      onClick={calls.hangup}
    />
  );

  return (
    <div className="call-controls-stack" role="group" aria-label={t('call.controls')}>
      {hasCamera && (
        <div className="call-controls">
          {call.cameras > 1 && (
            <ControlButton icon={<LoopOutline />} label={t('call.switchCamera')} onClick={calls.switchCamera} />
          )}
          <ControlButton
            icon={call.cameraOff ? <VideoOutline className="call-icon-off" /> : <VideoOutline />}
            label={call.cameraOff ? t('call.cameraOn') : t('call.cameraOff')}
            onClick={calls.toggleCamera}
          />
        </div>
      )}
      <div className="call-controls">
        {mute}
        {hangup}
        {speakerButton}
      </div>
    </div>
  );
}
