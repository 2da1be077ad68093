import { CallCodes, CallEvent as SignalEvent, isMessageOf, type Message } from '@sparrow/protocol';

/** The events a `webrtc` push carries (docs/protocol.md §5); `otherOpt` tells my other devices what I did. */
export type CallEvent = SignalEvent | 'otherOpt';

const EVENTS: ReadonlySet<string> = new Set<CallEvent>([...SignalEvent.options, 'otherOpt']);

/** 1 video, 0 audio. */
export type CallType = 0 | 1;

/** What one signal of a call says, read from the call's message. */
export interface CallSignal {
  /** The call's UUID (the message's client id). */
  id: string;
  /** Who the signal is from. */
  fromId: number;
  type: CallType;
  event: CallEvent;
  code: number;
  callTime: number;
  sdp?: string;
  /** The candidate as the peer sent it: JSON text, or (older clients) an object. */
  iceCandidate?: unknown;
  /** With `camera`: 1 the peer's camera is on, 0 it is off. */
  camera?: 0 | 1;
}

/** Codes that end a call (docs/product.md §4 "Call flow"). */
const FINAL_CODES: ReadonlySet<number> = new Set([
  CallCodes.Cancelled,
  CallCodes.Refused,
  CallCodes.Unreachable,
  CallCodes.Ended,
  CallCodes.Busy,
]);

export function isFinalCode(code: number): boolean {
  return FINAL_CODES.has(code);
}

/** The signal in a `webrtc` message, or null when it is not one this client knows. */
export function callSignalOf(message: Message): CallSignal | null {
  if (!isMessageOf(message, 'webrtc')) return null;
  const ext = message.extends;
  const fromId = message.fromUser.id;
  if (!EVENTS.has(ext.event) || typeof fromId !== 'number') return null;
  return {
    id: message.id,
    fromId,
    type: ext.type === 1 ? 1 : 0,
    event: ext.event as CallEvent,
    code: ext.code,
    callTime: ext.callTime,
    ...(ext.sdp !== undefined && { sdp: ext.sdp }),
    ...(ext.iceCandidate !== undefined && { iceCandidate: ext.iceCandidate }),
    ...(ext.camera !== undefined && { camera: ext.camera }),
  };
}

/** An ICE candidate from a signal: JSON text as we send it, or an object as some clients do. */
export function parseCandidate(raw: unknown): RTCIceCandidateInit | null {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  if (!value || typeof value !== 'object') return null;
  const c = value as Record<string, unknown>;
  if (typeof c.candidate !== 'string') return null;
  return {
    candidate: c.candidate,
    sdpMid: typeof c.sdpMid === 'string' ? c.sdpMid : null,
    sdpMLineIndex: typeof c.sdpMLineIndex === 'number' ? c.sdpMLineIndex : null,
    ...(typeof c.usernameFragment === 'string' && { usernameFragment: c.usernameFragment }),
  };
}

/** mm:ss, or h:mm:ss from an hour on. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const rest = `${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
  return h ? `${h}:${rest}` : rest;
}
