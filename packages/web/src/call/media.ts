import { CallMediaError, type OpenedMedia } from './session';
import type { CallType } from './signal';

const AUDIO: MediaTrackConstraints = { echoCancellation: true, noiseSuppression: true, autoGainControl: true };
const VIDEO: MediaTrackConstraints = { facingMode: 'user', width: { ideal: 640 }, height: { ideal: 480 } };

/** Why getUserMedia failed: refused, missing or held by another program. */
const DEVICE_ERRORS = new Set(['NotAllowedError', 'NotFoundError', 'NotReadableError', 'OverconstrainedError']);

const isDeviceError = (error: unknown) => error instanceof Error && DEVICE_ERRORS.has(error.name);

/** Calls need getUserMedia, which browsers give only to secure pages (HTTPS or localhost). */
export function canCall(): boolean {
  return typeof RTCPeerConnection === 'function' && typeof navigator.mediaDevices?.getUserMedia === 'function';
}

/**
 * The microphone, and for a video call the camera. A camera refused or missing leaves a call with
 * sound only (`cameraFailed`); a microphone refused or missing ends it before it starts.
 */
export async function openMedia(type: CallType, devices = navigator.mediaDevices): Promise<OpenedMedia> {
  if (typeof devices?.getUserMedia !== 'function') throw new CallMediaError('unsupported');
  if (type === 1) {
    try {
      return { stream: await devices.getUserMedia({ audio: AUDIO, video: VIDEO }), cameraFailed: false };
    } catch (error) {
      if (!isDeviceError(error)) throw error;
    }
  }
  try {
    return { stream: await devices.getUserMedia({ audio: AUDIO }), cameraFailed: type === 1 };
  } catch (error) {
    if (isDeviceError(error)) throw new CallMediaError('microphone');
    throw error;
  }
}

/** One camera's video track, for switching to it. */
export async function openCamera(deviceId: string, devices = navigator.mediaDevices): Promise<MediaStreamTrack> {
  const stream = await devices.getUserMedia({
    video: { ...VIDEO, facingMode: undefined, deviceId: { exact: deviceId } },
  });
  const track = stream.getVideoTracks()[0];
  if (!track) throw new Error('no video track');
  return track;
}

/** The ids of this device's cameras. */
export async function listCameras(devices = navigator.mediaDevices): Promise<string[]> {
  const all = await devices.enumerateDevices();
  return all.filter((d) => d.kind === 'videoinput' && d.deviceId).map((d) => d.deviceId);
}

/** Whether this browser lets a page choose the sound output (speaker or earpiece). */
export function canChooseOutput(): boolean {
  return typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;
}

/**
 * The output for the speaker (on) or the earpiece (off): the device whose label says so, else
 * the default output for the speaker and the first other one for the earpiece. Null when the
 * device has a single output, so there is nothing to choose.
 */
export async function outputFor(speaker: boolean, devices = navigator.mediaDevices): Promise<string | null> {
  const outputs = (await devices.enumerateDevices()).filter((d) => d.kind === 'audiooutput');
  if (outputs.length < 2) return null;
  const byLabel = (re: RegExp) => outputs.find((d) => re.test(d.label));
  if (speaker)
    return (
      (byLabel(/speaker|扬声器/i) ?? outputs.find((d) => d.deviceId === 'default') ?? outputs[0])?.deviceId ?? null
    );
  return (
    (
      byLabel(/earpiece|receiver|handset|听筒/i) ??
      outputs.find((d) => d.deviceId !== 'default' && d.deviceId !== 'communications')
    )?.deviceId ?? null
  );
}

/** How many sound outputs there are to choose from. */
export async function outputCount(devices = navigator.mediaDevices): Promise<number> {
  if (typeof devices?.enumerateDevices !== 'function') return 0;
  return (await devices.enumerateDevices()).filter((d) => d.kind === 'audiooutput').length;
}
