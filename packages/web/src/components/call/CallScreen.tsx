import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { canChooseOutput, outputCount, outputFor } from '../../call/media';
import type { CallEnd, CallSnapshot } from '../../call/session';
import { formatDuration } from '../../call/signal';
import { useCall } from '../../call/store';
import type { MessageKey } from '../../i18n/keys';
import { useNow } from '../../lib/use-now';
import { Avatar } from '../Avatar';
import { CallControls } from './CallControls';
import { DraggableVideo } from './DraggableVideo';
import { MediaView } from './MediaView';
import './call.css';

/** What the screen says when a call ends. */
function endKey(end: CallEnd | undefined, call: CallSnapshot): MessageKey {
  switch (end) {
    case 'noAnswer':
      return call.role === 'caller' ? 'call.end.noAnswer' : 'call.end.missed';
    case 'cancelled':
    case 'peerCancelled':
    case 'refused':
    case 'peerRefused':
    case 'busy':
    case 'failed':
    case 'elsewhere':
    case 'microphone':
    case 'unsupported':
      return `call.end.${end}`;
    case 'ended':
    case 'refusedByServer':
    case undefined:
      return 'call.end.ended';
  }
}

/** The line under the name: who calls, waiting, connecting, the time talked, how it ended. */
function useStatus(call: CallSnapshot): string {
  const { t } = useTranslation();
  const now = useNow(1000);
  switch (call.phase) {
    case 'incoming':
      return call.type === 1 ? t('call.invitedVideo') : t('call.invitedVoice');
    case 'outgoing':
      return t('call.waiting');
    case 'connecting':
      return t('call.connecting');
    case 'reconnecting':
      return t('call.reconnecting');
    case 'connected':
      return formatDuration((now - (call.connectedAt ?? now)) / 1000);
    case 'ended':
      return call.end === 'refusedByServer' && call.endText ? call.endText : t(endKey(call.end, call));
  }
}

/** The output to play through for the speaker setting, where the browser lets us choose. */
function useSink(speaker: boolean): { sinkId: string | null; choosable: boolean } {
  const [state, setState] = useState<{ sinkId: string | null; choosable: boolean }>({ sinkId: null, choosable: false });
  useEffect(() => {
    if (!canChooseOutput()) return;
    let alive = true;
    void Promise.all([outputCount(), outputFor(speaker)])
      .then(([count, sinkId]) => alive && setState({ sinkId, choosable: count > 1 }))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [speaker]);
  return state;
}

/**
 * A call, full screen: the peer's picture large (or their photo in a voice call, or when their camera
 * is off), mine small and
 * movable, the name, what is happening or the time talked, and the buttons.
 */
export function CallScreen({ call }: { call: CallSnapshot }) {
  const { t } = useTranslation();
  const speaker = useCall((s) => s.speaker);
  const { sinkId, choosable } = useSink(speaker);
  const status = useStatus(call);
  const video = call.type === 1;
  const talking = call.phase === 'connected' || call.phase === 'reconnecting';
  const peerCameraOff = video && talking && call.peerCameraOff;
  const remoteVideo = video && talking && !call.peerCameraOff && (call.remoteStream?.getVideoTracks().length ?? 0) > 0;
  const showLocal = video && call.localStream !== null && !call.cameraFailed && call.phase !== 'ended';

  return (
    <main id="main" className={`call-screen${remoteVideo ? ' call-screen-video' : ''}`} aria-labelledby="call-peer">
      {video ? (
        <MediaView
          kind="video"
          stream={call.remoteStream}
          label={t('call.remoteVideo')}
          sinkId={sinkId}
          className={remoteVideo ? 'call-remote' : 'call-remote call-remote-waiting'}
        />
      ) : (
        <MediaView kind="audio" stream={call.remoteStream} label={call.peer.name} sinkId={sinkId} />
      )}
      <header className={`call-head${remoteVideo ? ' call-head-compact' : ''}`}>
        {!remoteVideo && <Avatar src={call.peer.avatar} name={call.peer.name} alt="" size={96} />}
        <h1 className="call-name" id="call-peer">
          {call.peer.name}
        </h1>
        <p className="call-status" role="status">
          {call.phase === 'connected' ? <time>{status}</time> : status}
        </p>
        {call.cameraFailed && call.phase !== 'ended' && <p className="call-note">{t('call.cameraFailed')}</p>}
        {peerCameraOff && <p className="call-note">{t('call.peerCameraOff')}</p>}
      </header>
      {showLocal && <DraggableVideo stream={call.localStream} label={t('call.localVideo')} hidden={call.cameraOff} />}
      <CallControls call={call} speaker={speaker} canChooseOutput={choosable} />
    </main>
  );
}
