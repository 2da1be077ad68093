import { CALL_RING_TIMEOUT_MS, CallCodes, type IceConfig, type Message, type RouteInput } from '@sparrow/protocol';
import { isFinalCode, parseCandidate, type CallSignal, type CallType } from './signal';

/**
 * Where a call stands: `outgoing` ringing the peer, `incoming` ringing me, `connecting` answered
 * and negotiating, `connected` media flowing, `reconnecting` the network dropped and ICE restarts,
 * `ended`.
 */
export type CallPhase = 'outgoing' | 'incoming' | 'connecting' | 'connected' | 'reconnecting' | 'ended';
export type CallRole = 'caller' | 'callee';

export interface CallPeer {
  id: number;
  name: string;
  avatar: string;
}

/** Why a call ended, as the screen tells it. */
export type CallEnd =
  | 'cancelled'
  | 'peerCancelled'
  | 'noAnswer'
  | 'refused'
  | 'peerRefused'
  | 'busy'
  | 'ended'
  | 'failed'
  | 'elsewhere'
  | 'microphone'
  | 'unsupported'
  | 'refusedByServer';

/** What the screen shows of a call; a new object on every change. */
export interface CallSnapshot {
  id: string;
  role: CallRole;
  peer: CallPeer;
  /** The kind of call placed: 1 video, 0 audio. */
  type: CallType;
  phase: CallPhase;
  end?: CallEnd;
  /** The server's message when it refused the call (not friends, calls disabled). */
  endText?: string;
  /** When media first flowed, ms. */
  connectedAt?: number;
  muted: boolean;
  cameraOff: boolean;
  /** A video call whose camera could not be opened goes on with sound only. */
  cameraFailed: boolean;
  /** The peer turned their camera off, or has none: the screen shows their face instead. */
  peerCameraOff: boolean;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  /** How many cameras this device has (switching needs two). */
  cameras: number;
}

/** One signal as `sendToMsg` takes it (protocol's `SendToMsgBody`, the fields a call sends). */
export type CallSignalBody = Pick<
  RouteInput<'sendToMsg'>,
  'id' | 'toContactId' | 'type' | 'event' | 'code' | 'camera' | 'sdp' | 'iceCandidate' | 'callTime'
>;

/** The media a call opened: a video call without a camera gets sound only. */
export interface OpenedMedia {
  stream: MediaStream;
  cameraFailed: boolean;
}

/** A refusal to open media that ends the call before it starts. */
export class CallMediaError extends Error {
  override readonly name = 'CallMediaError';
  constructor(readonly reason: 'microphone' | 'unsupported') {
    super(reason);
  }
}

/** The part of RTCPeerConnection a call uses. */
export type PeerLike = Pick<
  RTCPeerConnection,
  | 'signalingState'
  | 'connectionState'
  | 'remoteDescription'
  | 'localDescription'
  | 'onicecandidate'
  | 'ontrack'
  | 'onnegotiationneeded'
  | 'onconnectionstatechange'
  | 'addTrack'
  | 'addTransceiver'
  | 'getSenders'
  | 'setLocalDescription'
  | 'setRemoteDescription'
  | 'addIceCandidate'
  | 'restartIce'
  | 'setConfiguration'
  | 'close'
>;

export interface CallTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What a call needs from the browser and the server; a test passes fakes. */
export interface CallDeps {
  /** `sendToMsg`: answers the call's message as I see it; throws an error with `code` 404 once the call is over. */
  send(body: CallSignalBody): Promise<Message>;
  /** `iceServers`: asked at the start of each call and before each ICE restart, never cached. */
  iceConfig(): Promise<IceConfig>;
  openMedia(type: CallType): Promise<OpenedMedia>;
  /** A camera's video track, for switching cameras. */
  openCamera(deviceId: string): Promise<MediaStreamTrack>;
  listCameras(): Promise<string[]>;
  createPeer(config: RTCConfiguration): PeerLike;
  /** An empty stream the peer's tracks are gathered in. */
  newStream(): MediaStream;
  timers: CallTimers;
  now(): number;
  onChange(snapshot: CallSnapshot): void;
  /** The call's message changed as I see it (placed, ended): the chat shows it. */
  onMessage(message: Message): void;
  warn?(...args: unknown[]): void;
  /** How long a call may ring, ms (docs/protocol.md §5: 40 s). */
  ringTimeoutMs?: number;
}

/** A dropped connection gets this long to come back by itself before ICE restarts, ms. */
export const DISCONNECT_GRACE_MS = 3_000;
/** An answered call that cannot connect, or stays cut off this long, ends, ms. */
export const CONNECT_TIMEOUT_MS = 30_000;

const errorCode = (error: unknown): number | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
};

/**
 * One call, from ringing to hanging up (docs/protocol.md §5). The caller places it (`calling`), and once the
 * callee answers (`acceptRtc`) sends the first offer; after that either side may offer again (an
 * ICE restart, a new track) under perfect negotiation, the callee being the polite peer. Remote
 * ICE candidates that arrive before the description they belong to wait for it.
 */
export class CallSession {
  private phase: CallPhase;
  private end: CallEnd | undefined;
  private endText: string | undefined;
  private connectedAt: number | undefined;
  private muted = false;
  private cameraOff = false;
  private cameraFailed = false;
  private peerCameraOff = false;
  /** The call was answered: from then on signals reach the peer. */
  private answered = false;
  private local: MediaStream | null = null;
  private remote: MediaStream | null = null;
  private cameras = 0;
  private pc: PeerLike | null = null;
  /** The ICE servers asked for when the call started, used when it is answered. */
  private config: RTCConfiguration = { iceServers: [] };

  private makingOffer = false;
  private ignoreOffer = false;
  /** The first offer and answer went through: from then on the callee may offer too. */
  private negotiated = false;
  private readonly pendingCandidates: RTCIceCandidateInit[] = [];
  /** Signals from the peer, handled one at a time in the order they came. */
  private inbox: Promise<void> = Promise.resolve();
  /** Signals to the peer, sent one at a time so an offer goes before its candidates. */
  private outbox: Promise<unknown> = Promise.resolve();
  /** Resolves once `calling` is answered: true when the call rings. */
  private placed: Promise<boolean> = Promise.resolve(false);

  private ringTimer: unknown = null;
  private connectTimer: unknown = null;
  private graceTimer: unknown = null;
  private restarting = false;

  private constructor(
    readonly id: string,
    readonly role: CallRole,
    readonly peer: CallPeer,
    readonly type: CallType,
    private readonly deps: CallDeps,
  ) {
    this.phase = role === 'caller' ? 'outgoing' : 'incoming';
  }

  /** Places a call: media first, then `calling`; rings until answered or the time-out (902). */
  static place(id: string, peer: CallPeer, type: CallType, deps: CallDeps): CallSession {
    const session = new CallSession(id, 'caller', peer, type, deps);
    session.placed = session.dial();
    return session;
  }

  /** A call ringing me; it rings until I answer, refuse, or the time-out. */
  static ringing(id: string, peer: CallPeer, type: CallType, deps: CallDeps): CallSession {
    const session = new CallSession(id, 'callee', peer, type, deps);
    session.ringTimer = deps.timers.setTimeout(() => session.finish('noAnswer'), session.ringTimeout);
    session.emit();
    return session;
  }

  get ended(): boolean {
    return this.phase === 'ended';
  }

  private get ringTimeout(): number {
    return this.deps.ringTimeoutMs ?? CALL_RING_TIMEOUT_MS;
  }

  snapshot(): CallSnapshot {
    return {
      id: this.id,
      role: this.role,
      peer: this.peer,
      type: this.type,
      phase: this.phase,
      ...(this.end && { end: this.end }),
      ...(this.endText && { endText: this.endText }),
      ...(this.connectedAt !== undefined && { connectedAt: this.connectedAt }),
      muted: this.muted,
      cameraOff: this.cameraOff,
      cameraFailed: this.cameraFailed,
      peerCameraOff: this.peerCameraOff,
      localStream: this.local,
      remoteStream: this.remote,
      cameras: this.cameras,
    };
  }

  private emit(): void {
    this.deps.onChange(this.snapshot());
  }

  private setPhase(phase: CallPhase): void {
    if (this.phase === phase || this.phase === 'ended') return;
    this.phase = phase;
    this.emit();
  }

  private body(event: CallSignalBody['event'], extra: Partial<CallSignalBody> = {}): CallSignalBody {
    return { id: this.id, toContactId: this.peer.id, type: this.type, event, ...extra };
  }

  /** Sends a signal after those before it; the answer, or the error it failed with. */
  private send(body: CallSignalBody): Promise<Message> {
    const sent = this.outbox.then(() => this.deps.send(body));
    this.outbox = sent.catch(() => undefined);
    return sent;
  }

  /** A relayed signal (offer, answer, candidate): a 404 means the call is over. */
  private relay(body: CallSignalBody): void {
    this.send(body).catch((error: unknown) => {
      if (errorCode(error) === 404) this.finish(this.connectedAt === undefined ? 'failed' : 'ended');
      else this.deps.warn?.('call: signal not sent', body.event, error);
    });
  }

  private async prepare(): Promise<{ config: RTCConfiguration; media: OpenedMedia } | null> {
    const config = await this.rtcConfig();
    this.config = config;
    try {
      const media = await this.deps.openMedia(this.type);
      if (this.ended) {
        for (const t of media.stream.getTracks()) t.stop();
        return null;
      }
      this.local = media.stream;
      this.cameraFailed = media.cameraFailed;
      this.cameras = this.type === 1 && !media.cameraFailed ? await this.deps.listCameras().then((c) => c.length) : 0;
      this.emit();
      return { config, media };
    } catch (error) {
      this.finish(error instanceof CallMediaError ? error.reason : 'microphone');
      return null;
    }
  }

  private async rtcConfig(): Promise<RTCConfiguration> {
    try {
      const ice = await this.deps.iceConfig();
      return { iceServers: ice.iceServers, iceTransportPolicy: ice.iceTransportPolicy ?? 'all' };
    } catch {
      // Without the servers the call can still connect on a local network.
      return { iceServers: [] };
    }
  }

  private async dial(): Promise<boolean> {
    this.emit();
    const ready = await this.prepare();
    if (!ready) return false;
    let answer: Message;
    try {
      answer = await this.send(this.body('calling'));
    } catch (error) {
      const text = (error as { message?: unknown }).message;
      this.endText = typeof text === 'string' && errorCode(error) !== undefined ? text : undefined;
      this.finish(errorCode(error) === undefined ? 'failed' : 'refusedByServer');
      return false;
    }
    this.deps.onMessage(answer);
    const ext = answer.extends as { event?: unknown; code?: unknown };
    if (ext.event === 'busy' || ext.code === CallCodes.Busy) {
      this.finish('busy');
      return false;
    }
    if (typeof ext.code === 'number' && isFinalCode(ext.code)) {
      // A retried `calling` of a call that is already over.
      this.finish('ended');
      return false;
    }
    if (this.ended) return true;
    if (this.phase === 'outgoing')
      this.ringTimer = this.deps.timers.setTimeout(() => void this.cancel('noAnswer'), this.ringTimeout);
    return true;
  }

  /** Answers a ringing call: media, then `acceptRtc`; the caller's offer follows. */
  async accept(): Promise<void> {
    if (this.phase !== 'incoming') return;
    this.clearRing();
    this.setPhase('connecting');
    const ready = await this.prepare();
    if (!ready) {
      if (this.end === 'microphone' || this.end === 'unsupported')
        this.send(this.body('hangup', { code: CallCodes.Unreachable }))
          .then((m) => this.deps.onMessage(m))
          .catch(() => undefined);
      return;
    }
    this.openPeer(ready.config, ready.media);
    this.armConnectTimer();
    try {
      await this.send(this.body('acceptRtc'));
    } catch (error) {
      this.finish(errorCode(error) === 404 ? 'peerCancelled' : 'failed');
      return;
    }
    this.onAnswered();
  }

  /** Refuses a ringing call (903). */
  async refuse(): Promise<void> {
    if (this.phase !== 'incoming') return;
    this.finish('refused');
    await this.finalSignal('hangup', CallCodes.Refused);
  }

  /** Hangs up: cancels a call still ringing (902), refuses one ringing me (903), ends one answered (906). */
  async hangup(): Promise<void> {
    if (this.phase === 'ended') return;
    if (this.phase === 'incoming') return this.refuse();
    if (this.phase === 'outgoing') return this.cancel('cancelled');
    const callTime = this.connectedAt === undefined ? 0 : Math.round((this.deps.now() - this.connectedAt) / 1000);
    this.finish('ended');
    await this.finalSignal('hangup', CallCodes.Ended, callTime);
  }

  /** The caller stops ringing: cancelled, or nobody answered in time (both 902). */
  private async cancel(end: 'cancelled' | 'noAnswer'): Promise<void> {
    if (this.phase !== 'outgoing') return;
    this.finish(end);
    // A cancel while `calling` is on its way goes after it.
    if (await this.placed) await this.finalSignal('hangup', CallCodes.Cancelled);
  }

  private async finalSignal(event: 'hangup' | 'busy', code: number, callTime?: number): Promise<void> {
    try {
      this.deps.onMessage(await this.send(this.body(event, { code, ...(callTime !== undefined && { callTime }) })));
    } catch {
      // 404: the call had already ended (the peer hung up at the same moment, or the server's time-out).
    }
  }

  /** A signal of this call from the peer, or from my other devices (`otherOpt`). */
  handle(signal: CallSignal): void {
    if (signal.id !== this.id || this.ended) return;
    this.inbox = this.inbox.then(() => this.apply(signal)).catch((error: unknown) => this.deps.warn?.('call:', error));
  }

  private async apply(s: CallSignal): Promise<void> {
    if (this.ended) return;
    switch (s.event) {
      case 'acceptRtc':
        if (this.role === 'caller' && this.phase === 'outgoing') await this.onAccepted();
        return;
      case 'offer':
      case 'answer':
        if (s.sdp !== undefined) await this.onDescription(s.event, s.sdp);
        return;
      case 'iceCandidate':
        await this.onCandidate(s.iceCandidate);
        return;
      case 'camera':
        this.peerCameraOff = s.camera === 0;
        this.emit();
        return;
      case 'hangup':
      case 'busy':
        this.onEnded(s.code);
        return;
      case 'otherOpt':
        // I answered or refused on another device, or ended the call there.
        if (s.code === CallCodes.Accepted || isFinalCode(s.code)) this.finish('elsewhere');
        return;
      case 'calling':
        return;
    }
  }

  private onEnded(code: number): void {
    const caller = this.role === 'caller';
    switch (code) {
      case CallCodes.Cancelled:
        return this.finish(caller ? 'noAnswer' : 'peerCancelled');
      case CallCodes.Refused:
        return this.finish(caller ? 'peerRefused' : 'refused');
      case CallCodes.Busy:
        return this.finish(caller ? 'busy' : 'ended');
      case CallCodes.Unreachable:
        return this.finish('failed');
      default:
        return this.finish('ended');
    }
  }

  private async onAccepted(): Promise<void> {
    this.clearRing();
    this.setPhase('connecting');
    const stream = this.local;
    if (!stream) return;
    this.openPeer(this.config, { stream, cameraFailed: this.cameraFailed });
    this.armConnectTimer();
    this.onAnswered();
  }

  /** Once answered, a video call whose camera is off (or missing) tells the peer so. */
  private onAnswered(): void {
    this.answered = true;
    if (this.type === 1 && (this.cameraOff || this.cameraFailed)) this.signalCamera();
  }

  private signalCamera(): void {
    this.relay(this.body('camera', { camera: this.cameraOff || this.cameraFailed ? 0 : 1 }));
  }

  private openPeer(config: RTCConfiguration, media: OpenedMedia): void {
    const pc = this.deps.createPeer(config);
    this.pc = pc;
    this.remote = this.deps.newStream();
    pc.onicecandidate = ({ candidate }) => {
      if (candidate) this.relay(this.body('iceCandidate', { iceCandidate: JSON.stringify(candidate.toJSON()) }));
    };
    pc.ontrack = ({ track }) => {
      this.remote?.addTrack(track);
      this.emit();
    };
    pc.onnegotiationneeded = () => void this.negotiate();
    pc.onconnectionstatechange = () => this.onConnectionState();
    for (const track of media.stream.getTracks()) pc.addTrack(track, media.stream);
    // A video call without a camera still shows the peer's.
    if (this.type === 1 && media.stream.getVideoTracks().length === 0)
      pc.addTransceiver('video', { direction: 'recvonly' });
  }

  private async negotiate(): Promise<void> {
    const pc = this.pc;
    // The callee answers the first offer; it offers itself only after (an ICE restart).
    if (!pc || this.ended || (this.role === 'callee' && !this.negotiated)) return;
    try {
      this.makingOffer = true;
      await pc.setLocalDescription();
      const sdp = pc.localDescription?.sdp;
      if (sdp && !this.ended) this.relay(this.body('offer', { sdp }));
    } catch (error) {
      this.deps.warn?.('call: offer failed', error);
    } finally {
      this.makingOffer = false;
    }
  }

  private async onDescription(type: 'offer' | 'answer', sdp: string): Promise<void> {
    const pc = this.pc;
    if (!pc) return;
    const collision = type === 'offer' && (this.makingOffer || pc.signalingState !== 'stable');
    // The caller is the impolite peer: in a collision its own offer wins.
    this.ignoreOffer = this.role === 'caller' && collision;
    if (this.ignoreOffer) return;
    await pc.setRemoteDescription({ type, sdp });
    await this.flushCandidates();
    if (type === 'offer') {
      await pc.setLocalDescription();
      const answer = pc.localDescription?.sdp;
      if (answer) this.relay(this.body('answer', { sdp: answer }));
    }
    this.negotiated = true;
  }

  private async onCandidate(raw: unknown): Promise<void> {
    const candidate = parseCandidate(raw);
    if (!candidate) return;
    const pc = this.pc;
    if (!pc || !pc.remoteDescription) {
      this.pendingCandidates.push(candidate);
      return;
    }
    await this.addCandidate(pc, candidate);
  }

  private async flushCandidates(): Promise<void> {
    const pc = this.pc;
    if (!pc) return;
    for (const c of this.pendingCandidates.splice(0)) await this.addCandidate(pc, c);
  }

  private async addCandidate(pc: PeerLike, candidate: RTCIceCandidateInit): Promise<void> {
    try {
      await pc.addIceCandidate(candidate);
    } catch (error) {
      // Candidates of an offer we ignored, or of an ICE generation that has passed.
      if (!this.ignoreOffer) this.deps.warn?.('call: candidate refused', error);
    }
  }

  private onConnectionState(): void {
    const pc = this.pc;
    if (!pc || this.ended) return;
    switch (pc.connectionState) {
      case 'connected':
        this.clearTimer('graceTimer');
        this.clearTimer('connectTimer');
        this.restarting = false;
        this.connectedAt ??= this.deps.now();
        this.setPhase('connected');
        return;
      case 'disconnected':
        if (this.connectedAt !== undefined) this.setPhase('reconnecting');
        this.armConnectTimer();
        this.clearTimer('graceTimer');
        this.graceTimer = this.deps.timers.setTimeout(() => void this.restartIce(), DISCONNECT_GRACE_MS);
        return;
      case 'failed':
        if (this.connectedAt !== undefined) this.setPhase('reconnecting');
        this.armConnectTimer();
        void this.restartIce();
        return;
      case 'new':
      case 'connecting':
      case 'closed':
        return;
    }
  }

  /** The network changed or the socket came back: new ICE servers, new candidates, same call. */
  async restartIce(): Promise<void> {
    const pc = this.pc;
    if (!pc || this.ended || this.restarting) return;
    this.restarting = true;
    try {
      pc.setConfiguration(await this.rtcConfig());
    } catch (error) {
      this.deps.warn?.('call: ICE servers not applied', error);
    }
    if (this.ended) return;
    pc.restartIce();
    // The restart is done once connected again; a later drop restarts again.
    this.deps.timers.setTimeout(() => {
      this.restarting = false;
    }, DISCONNECT_GRACE_MS);
  }

  /** An answered call that does not connect, or stays cut off, ends rather than hang forever. */
  private armConnectTimer(): void {
    if (this.connectTimer !== null) return;
    this.connectTimer = this.deps.timers.setTimeout(() => {
      this.connectTimer = null;
      if (this.phase === 'connected' || this.ended) return;
      const callTime = this.connectedAt === undefined ? 0 : Math.round((this.deps.now() - this.connectedAt) / 1000);
      this.finish('failed');
      void this.finalSignal(
        'hangup',
        this.connectedAt === undefined ? CallCodes.Unreachable : CallCodes.Ended,
        callTime,
      );
    }, CONNECT_TIMEOUT_MS);
  }

  toggleMute(): void {
    this.muted = !this.muted;
    for (const t of this.local?.getAudioTracks() ?? []) t.enabled = !this.muted;
    this.emit();
  }

  toggleCamera(): void {
    this.cameraOff = !this.cameraOff;
    for (const t of this.local?.getVideoTracks() ?? []) t.enabled = !this.cameraOff;
    if (this.answered && !this.cameraFailed) this.signalCamera();
    this.emit();
  }

  /** The next camera (front, back…), sent in place of the current one without renegotiating. */
  async switchCamera(): Promise<void> {
    const stream = this.local;
    const current = stream?.getVideoTracks()[0];
    if (!stream || !current) return;
    const ids = await this.deps.listCameras();
    if (ids.length < 2) return;
    const at = ids.indexOf(current.getSettings().deviceId ?? '');
    const nextId = ids[(at + 1) % ids.length];
    if (nextId === undefined) return;
    const track = await this.deps.openCamera(nextId);
    if (this.ended) {
      track.stop();
      return;
    }
    track.enabled = !this.cameraOff;
    const sender = this.pc?.getSenders().find((s) => s.track === current);
    await sender?.replaceTrack(track);
    stream.removeTrack(current);
    stream.addTrack(track);
    current.stop();
    // A new stream object, so the small picture shows the new camera.
    const next = this.deps.newStream();
    for (const t of stream.getTracks()) next.addTrack(t);
    this.local = next;
    this.emit();
  }

  private clearRing(): void {
    this.clearTimer('ringTimer');
  }

  private clearTimer(name: 'ringTimer' | 'connectTimer' | 'graceTimer'): void {
    if (this[name] !== null) this.deps.timers.clearTimeout(this[name]);
    this[name] = null;
  }

  /** Ends the call here: timers, media and the connection stop. */
  finish(end: CallEnd): void {
    if (this.phase === 'ended') return;
    this.phase = 'ended';
    this.end = end;
    this.clearRing();
    this.clearTimer('connectTimer');
    this.clearTimer('graceTimer');
    for (const t of this.local?.getTracks() ?? []) t.stop();
    this.pc?.close();
    this.pc = null;
    this.emit();
  }
}
