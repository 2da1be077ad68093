import { CALL_RING_TIMEOUT_MS, type IceConfig, type Message } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import {
  CallMediaError,
  CallSession,
  DISCONNECT_GRACE_MS,
  type CallDeps,
  type CallSignalBody,
  type CallSnapshot,
  type PeerLike,
} from './session';
import { parseCandidate, type CallSignal } from './signal';

/** Timers on a clock the test moves. */
class FakeClock {
  t = 1_000_000;
  private seq = 0;
  private readonly due = new Map<number, { at: number; fn: () => void }>();
  setTimeout = (fn: () => void, ms: number) => {
    this.seq += 1;
    this.due.set(this.seq, { at: this.t + ms, fn });
    return this.seq;
  };
  clearTimeout = (h: unknown) => {
    this.due.delete(h as number);
  };
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      const next = [...this.due.entries()].filter(([, d]) => d.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) break;
      this.due.delete(next[0]);
      this.t = next[1].at;
      next[1].fn();
      await settle();
    }
    this.t = end;
    await settle();
  }
}

/** Lets every pending promise chain run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
}

class FakeTrack {
  enabled = true;
  stopped = false;
  constructor(
    readonly kind: 'audio' | 'video',
    readonly id: string,
  ) {}
  stop() {
    this.stopped = true;
  }
  getSettings() {
    return { deviceId: this.id };
  }
}

class FakeStream {
  constructor(private tracks: FakeTrack[] = []) {}
  getTracks() {
    return [...this.tracks];
  }
  getAudioTracks() {
    return this.tracks.filter((t) => t.kind === 'audio');
  }
  getVideoTracks() {
    return this.tracks.filter((t) => t.kind === 'video');
  }
  addTrack(t: FakeTrack) {
    this.tracks.push(t);
  }
  removeTrack(t: FakeTrack) {
    this.tracks = this.tracks.filter((x) => x !== t);
  }
}

/** An RTCPeerConnection with the signalling states of the real one, and no network. */
class FakePeer {
  signalingState: RTCSignalingState = 'stable';
  connectionState: RTCPeerConnectionState = 'new';
  remoteDescription: RTCSessionDescriptionInit | null = null;
  localDescription: RTCSessionDescriptionInit | null = null;
  onicecandidate: ((ev: { candidate: { toJSON(): RTCIceCandidateInit } | null }) => void) | null = null;
  ontrack: ((ev: { track: FakeTrack; streams: FakeStream[] }) => void) | null = null;
  onnegotiationneeded: (() => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;
  readonly added: RTCIceCandidateInit[] = [];
  readonly tracks: FakeTrack[] = [];
  readonly transceivers: string[] = [];
  readonly configs: RTCConfiguration[] = [];
  restarts = 0;
  closed = false;
  private offers = 0;

  constructor(readonly config: RTCConfiguration) {}

  private needNegotiation() {
    queueMicrotask(() => this.onnegotiationneeded?.());
  }
  addTrack(track: FakeTrack) {
    this.tracks.push(track);
    this.needNegotiation();
    return { track, replaceTrack: async () => undefined };
  }
  addTransceiver(kind: string) {
    this.transceivers.push(kind);
    this.needNegotiation();
  }
  getSenders() {
    return this.tracks.map((track) => ({ track, replaceTrack: async () => undefined }));
  }
  async setLocalDescription() {
    if (this.signalingState === 'have-remote-offer') {
      this.localDescription = { type: 'answer', sdp: `answer-sdp` };
      this.signalingState = 'stable';
    } else {
      this.offers += 1;
      this.localDescription = { type: 'offer', sdp: `offer-sdp-${this.offers}` };
      this.signalingState = 'have-local-offer';
    }
  }
  async setRemoteDescription(desc: RTCSessionDescriptionInit) {
    this.remoteDescription = desc;
    this.signalingState = desc.type === 'offer' ? 'have-remote-offer' : 'stable';
  }
  async addIceCandidate(c: RTCIceCandidateInit) {
    if (!this.remoteDescription) throw new Error('InvalidStateError: no remote description');
    this.added.push(c);
  }
  restartIce() {
    this.restarts += 1;
    this.needNegotiation();
  }
  setConfiguration(c: RTCConfiguration) {
    this.configs.push(c);
  }
  close() {
    this.closed = true;
  }
  /** The browser found a local candidate. */
  gather(candidate: string) {
    this.onicecandidate?.({ candidate: { toJSON: () => ({ candidate, sdpMid: '0', sdpMLineIndex: 0 }) } });
  }
  setConnection(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.onconnectionstatechange?.();
  }
}

const ICE: IceConfig = { iceServers: [{ urls: 'stun:stun.example.org' }], ttl: 86_400 };
const PEER = { id: 2, name: 'Bob', avatar: '' };

function message(ext: Record<string, unknown>): Message {
  return {
    id: 'call-1',
    msg_id: 10,
    type: 'webrtc',
    content: '语音通话',
    sendTime: 0,
    toContactId: 2,
    is_group: 0,
    status: 'succeed',
    is_read: 0,
    at: [],
    pid: 0,
    fromUser: { id: 1, user_id: 1, realname: 'Alice', displayName: 'Alice', avatar: '' },
    extends: { type: 0, status: 3, event: 'calling', code: 901, callTime: 0, isMobile: false, ...ext },
  } as Message;
}

function setup(
  opts: {
    answer?: (body: CallSignalBody) => Message | Promise<Message>;
    media?: 'ok' | 'microphone' | 'camera';
  } = {},
) {
  const clock = new FakeClock();
  const sent: CallSignalBody[] = [];
  const peers: FakePeer[] = [];
  const snapshots: CallSnapshot[] = [];
  const shown: Message[] = [];
  let iceAsked = 0;
  const deps: CallDeps = {
    send: async (body) => {
      sent.push(body);
      return opts.answer ? opts.answer(body) : message({ event: body.event, code: body.code ?? 901 });
    },
    iceConfig: async () => {
      iceAsked += 1;
      return ICE;
    },
    openMedia: async (type) => {
      if (opts.media === 'microphone') throw new CallMediaError('microphone');
      const tracks = [new FakeTrack('audio', 'mic')];
      if (type === 1 && opts.media !== 'camera') tracks.push(new FakeTrack('video', 'front'));
      return {
        stream: new FakeStream(tracks) as unknown as MediaStream,
        cameraFailed: type === 1 && opts.media === 'camera',
      };
    },
    openCamera: async (id) => new FakeTrack('video', id) as unknown as MediaStreamTrack,
    listCameras: async () => ['front', 'back'],
    createPeer: (config) => {
      const pc = new FakePeer(config);
      peers.push(pc);
      return pc as unknown as PeerLike;
    },
    newStream: () => new FakeStream() as unknown as MediaStream,
    timers: clock,
    now: () => clock.t,
    onChange: (s) => snapshots.push(s),
    onMessage: (m) => shown.push(m),
  };
  return {
    clock,
    sent,
    peers,
    shown,
    deps,
    iceAsked: () => iceAsked,
    last: () => snapshots.at(-1),
    events: () => sent.map((b) => b.event),
  };
}

/** A signal from the peer (user 2). */
function signal(event: CallSignal['event'], extra: Partial<CallSignal> = {}): CallSignal {
  return { id: 'call-1', fromId: 2, type: 0, event, code: 0, callTime: 0, ...extra };
}

describe('placing a call', () => {
  it('asks for the ICE servers, opens the microphone, then sends calling', async () => {
    const t = setup();
    CallSession.place('call-1', PEER, 0, t.deps);
    await settle();
    expect(t.iceAsked()).toBe(1);
    expect(t.sent).toEqual([{ id: 'call-1', toContactId: 2, type: 0, event: 'calling' }]);
    expect(t.last()?.phase).toBe('outgoing');
    expect(t.shown).toHaveLength(1);
  });

  it('gives up on an unanswered call after 40 000 ms by default, with hangup 902', async () => {
    expect(CALL_RING_TIMEOUT_MS).toBe(40_000);
    const t = setup();
    CallSession.place('call-1', PEER, 0, t.deps);
    await settle();
    await t.clock.advance(39_999);
    expect(t.events()).toEqual(['calling']);
    await t.clock.advance(1);
    expect(t.sent.at(-1)).toMatchObject({ event: 'hangup', code: 902 });
    expect(t.last()).toMatchObject({ phase: 'ended', end: 'noAnswer' });
  });

  it('ends at once when the server answers busy (907), sending nothing more', async () => {
    const t = setup({ answer: () => message({ event: 'busy', code: 907 }) });
    const s = CallSession.place('call-1', PEER, 0, t.deps);
    await settle();
    expect(s.snapshot()).toMatchObject({ phase: 'ended', end: 'busy' });
    await t.clock.advance(60_000);
    expect(t.events()).toEqual(['calling']);
  });

  it('a refused microphone ends the call before it is placed', async () => {
    const t = setup({ media: 'microphone' });
    const s = CallSession.place('call-1', PEER, 0, t.deps);
    await settle();
    expect(s.snapshot()).toMatchObject({ phase: 'ended', end: 'microphone' });
    expect(t.sent).toEqual([]);
  });

  it('a video call without a camera goes on with sound and still receives the picture', async () => {
    const t = setup({ media: 'camera' });
    const s = CallSession.place('call-1', PEER, 1, t.deps);
    await settle();
    expect(s.snapshot()).toMatchObject({ phase: 'outgoing', cameraFailed: true });
    s.handle(signal('acceptRtc', { code: 904 }));
    await settle();
    expect(t.peers[0]?.tracks.map((x) => x.kind)).toEqual(['audio']);
    expect(t.peers[0]?.transceivers).toEqual(['video']);
  });

  it('cancelling while calling is on its way sends the hangup after it', async () => {
    let release: () => void = () => undefined;
    const t = setup({
      answer: async (b) => {
        if (b.event === 'calling') await new Promise<void>((r) => (release = r));
        return message({ event: b.event, code: b.code ?? 901 });
      },
    });
    const s = CallSession.place('call-1', PEER, 0, t.deps);
    await settle();
    const hung = s.hangup();
    expect(s.snapshot()).toMatchObject({ phase: 'ended', end: 'cancelled' });
    release();
    await hung;
    expect(t.sent.map((b) => [b.event, b.code])).toEqual([
      ['calling', undefined],
      ['hangup', 902],
    ]);
  });
});

describe('a call from offer to hangup', () => {
  it('the caller offers once answered, applies the answer, and ends with 906 and the time talked', async () => {
    const t = setup();
    const s = CallSession.place('call-1', PEER, 0, t.deps);
    await settle();
    s.handle(signal('acceptRtc', { code: 904 }));
    await settle();
    const pc = t.peers[0]!;
    // The servers asked for when the call started serve its connection: no second round trip.
    expect(t.iceAsked()).toBe(1);
    expect(pc.config).toEqual({ iceServers: ICE.iceServers, iceTransportPolicy: 'all' });
    expect(t.sent.at(-1)).toMatchObject({ event: 'offer', sdp: 'offer-sdp-1' });
    pc.gather('candidate:1 1 udp 2122260223 192.0.2.2 50000 typ host');
    await settle();
    expect(t.sent.at(-1)).toMatchObject({
      event: 'iceCandidate',
      iceCandidate: JSON.stringify({
        candidate: 'candidate:1 1 udp 2122260223 192.0.2.2 50000 typ host',
        sdpMid: '0',
        sdpMLineIndex: 0,
      }),
    });
    s.handle(signal('answer', { sdp: 'answer-sdp' }));
    await settle();
    expect(pc.remoteDescription).toEqual({ type: 'answer', sdp: 'answer-sdp' });
    pc.setConnection('connected');
    expect(s.snapshot().phase).toBe('connected');
    await t.clock.advance(83_000);
    await s.hangup();
    expect(t.sent.at(-1)).toMatchObject({ event: 'hangup', code: 906, callTime: 83 });
    expect(pc.closed).toBe(true);
  });

  it('the callee answers: candidates that come before the offer wait for it', async () => {
    const t = setup();
    const s = CallSession.ringing('call-1', PEER, 0, t.deps);
    expect(s.snapshot().phase).toBe('incoming');
    await s.accept();
    expect(t.events()).toEqual(['acceptRtc']);
    const pc = t.peers[0]!;
    // The callee's own tracks ask for negotiation; it answers the caller's offer instead.
    await settle();
    expect(t.events()).toEqual(['acceptRtc']);
    const early = { candidate: 'candidate:9 1 udp 1 198.51.100.7 40000 typ srflx', sdpMid: '0', sdpMLineIndex: 0 };
    s.handle(signal('iceCandidate', { iceCandidate: JSON.stringify(early) }));
    await settle();
    expect(pc.added).toEqual([]);
    s.handle(signal('offer', { sdp: 'offer-sdp' }));
    await settle();
    expect(pc.added).toEqual([early]);
    expect(t.sent.at(-1)).toMatchObject({ event: 'answer', sdp: 'answer-sdp' });
    // An object, as some clients send it, is taken too.
    s.handle(signal('iceCandidate', { iceCandidate: { ...early, candidate: 'candidate:10 1 udp 1 x 1 typ host' } }));
    await settle();
    expect(pc.added).toHaveLength(2);
  });

  it('a callee whose microphone is refused ends the call with 905', async () => {
    const t = setup({ media: 'microphone' });
    const s = CallSession.ringing('call-1', PEER, 0, t.deps);
    await s.accept();
    await settle();
    expect(s.snapshot()).toMatchObject({ phase: 'ended', end: 'microphone' });
    expect(t.sent.map((b) => [b.event, b.code])).toEqual([['hangup', 905]]);
  });

  it('a call ringing me stops ringing after the time-out and sends nothing (the server ends it)', async () => {
    const t = setup();
    const s = CallSession.ringing('call-1', PEER, 0, t.deps);
    await t.clock.advance(CALL_RING_TIMEOUT_MS);
    expect(s.snapshot()).toMatchObject({ phase: 'ended', end: 'noAnswer' });
    expect(t.sent).toEqual([]);
  });

  it('refusing sends hangup 903', async () => {
    const t = setup();
    const s = CallSession.ringing('call-1', PEER, 0, t.deps);
    await s.refuse();
    expect(t.sent.map((b) => [b.event, b.code])).toEqual([['hangup', 903]]);
    expect(s.snapshot().end).toBe('refused');
  });

  it('ends as the peer says: refused, cancelled, or answered on another of my devices', async () => {
    const caller = setup();
    const a = CallSession.place('call-1', PEER, 0, caller.deps);
    await settle();
    a.handle(signal('hangup', { code: 903 }));
    await settle();
    expect(a.snapshot().end).toBe('peerRefused');

    const callee = setup();
    const b = CallSession.ringing('call-1', PEER, 0, callee.deps);
    b.handle(signal('hangup', { code: 902 }));
    await settle();
    expect(b.snapshot().end).toBe('peerCancelled');

    const other = setup();
    const c = CallSession.ringing('call-1', PEER, 0, other.deps);
    c.handle(signal('otherOpt', { code: 904, fromId: 1 }));
    await settle();
    expect(c.snapshot().end).toBe('elsewhere');
    // Signals of another call are not this one's.
    const d = CallSession.ringing('call-1', PEER, 0, setup().deps);
    d.handle({ ...signal('hangup', { code: 902 }), id: 'call-2' });
    await settle();
    expect(d.snapshot().phase).toBe('incoming');
  });

  it('a relayed signal answered 404 means the call is over', async () => {
    const t = setup({
      answer: (b) => {
        if (b.event === 'offer') throw Object.assign(new Error('通话已结束'), { code: 404 });
        return message({ event: b.event, code: 901 });
      },
    });
    const s = CallSession.place('call-1', PEER, 0, t.deps);
    await settle();
    s.handle(signal('acceptRtc', { code: 904 }));
    await settle();
    expect(s.snapshot()).toMatchObject({ phase: 'ended', end: 'failed' });
  });
});

describe('perfect negotiation', () => {
  it('the caller ignores an offer that collides with its own; the callee yields to the caller', async () => {
    const caller = setup();
    const a = CallSession.place('call-1', PEER, 0, caller.deps);
    await settle();
    a.handle(signal('acceptRtc', { code: 904 }));
    await settle();
    // The caller's offer is out, unanswered; the callee's offer crosses it.
    a.handle(signal('offer', { sdp: 'their-offer' }));
    await settle();
    expect(caller.peers[0]?.remoteDescription).toBeNull();
    expect(caller.events().filter((e) => e === 'answer')).toEqual([]);
  });
});

describe('ICE restart', () => {
  async function connected() {
    const t = setup();
    const s = CallSession.place('call-1', PEER, 0, t.deps);
    await settle();
    s.handle(signal('acceptRtc', { code: 904 }));
    await settle();
    s.handle(signal('answer', { sdp: 'answer-sdp' }));
    await settle();
    const pc = t.peers[0]!;
    pc.setConnection('connected');
    return { t, s, pc };
  }

  it('a failed connection fetches fresh ICE servers and restarts ICE with a new offer', async () => {
    const { t, s, pc } = await connected();
    const asked = t.iceAsked();
    pc.setConnection('failed');
    await settle();
    expect(s.snapshot().phase).toBe('reconnecting');
    expect(t.iceAsked()).toBe(asked + 1);
    expect(pc.configs).toHaveLength(1);
    expect(pc.restarts).toBe(1);
    expect(t.sent.at(-1)).toMatchObject({ event: 'offer', sdp: 'offer-sdp-2' });
    pc.setConnection('connected');
    expect(s.snapshot().phase).toBe('connected');
  });

  it('a dropped connection gets a grace period before the restart', async () => {
    const { t, pc } = await connected();
    pc.setConnection('disconnected');
    await t.clock.advance(DISCONNECT_GRACE_MS - 1);
    expect(pc.restarts).toBe(0);
    await t.clock.advance(1);
    expect(pc.restarts).toBe(1);
  });

  it('a socket reconnect restarts ICE on a live call', async () => {
    const { s, pc } = await connected();
    await s.restartIce();
    expect(pc.restarts).toBe(1);
  });
});

describe('controls', () => {
  it('mute and camera switch the local tracks off and on; switching cameras replaces the track', async () => {
    const t = setup();
    const s = CallSession.place('call-1', PEER, 1, t.deps);
    await settle();
    const stream = s.snapshot().localStream as unknown as FakeStream;
    s.toggleMute();
    s.toggleCamera();
    expect(stream.getAudioTracks()[0]?.enabled).toBe(false);
    expect(stream.getVideoTracks()[0]?.enabled).toBe(false);
    expect(s.snapshot()).toMatchObject({ muted: true, cameraOff: true, cameras: 2 });
    s.handle(signal('acceptRtc', { code: 904 }));
    await settle();
    const front = stream.getVideoTracks()[0]!;
    await s.switchCamera();
    const now = s.snapshot().localStream as unknown as FakeStream;
    expect(now.getVideoTracks()[0]?.id).toBe('back');
    expect(now.getVideoTracks()[0]?.enabled).toBe(false);
    expect(front.stopped).toBe(true);
  });

  it('a camera turned off tells the answered peer (camera 0), and on again (camera 1); before the answer it waits', async () => {
    const t = setup();
    const s = CallSession.place('call-1', PEER, 1, t.deps);
    await settle();
    s.toggleCamera();
    await settle();
    expect(t.events()).toEqual(['calling']);
    s.handle(signal('acceptRtc', { code: 904 }));
    await settle();
    expect(t.sent.filter((b) => b.event === 'camera')).toEqual([expect.objectContaining({ camera: 0 })]);
    s.toggleCamera();
    await settle();
    expect(t.sent.filter((b) => b.event === 'camera').map((b) => b.camera)).toEqual([0, 1]);
  });

  it('a video call without a camera tells the peer once answered; an audio call never sends camera', async () => {
    const video = setup({ media: 'camera' });
    const callee = CallSession.ringing('call-1', PEER, 1, video.deps);
    await callee.accept();
    await settle();
    expect(video.sent.filter((b) => b.event === 'camera')).toEqual([expect.objectContaining({ camera: 0 })]);
    const audio = setup();
    const caller = CallSession.place('call-1', PEER, 0, audio.deps);
    await settle();
    caller.handle(signal('acceptRtc', { code: 904 }));
    await settle();
    expect(audio.events()).not.toContain('camera');
  });

  it("the peer's camera turned off shows as peerCameraOff until they turn it on", async () => {
    const t = setup();
    const s = CallSession.place('call-1', PEER, 1, t.deps);
    await settle();
    s.handle(signal('acceptRtc', { code: 904 }));
    s.handle(signal('camera', { type: 1, camera: 0 }));
    await settle();
    expect(s.snapshot().peerCameraOff).toBe(true);
    s.handle(signal('camera', { type: 1, camera: 1 }));
    await settle();
    expect(s.snapshot().peerCameraOff).toBe(false);
  });
});

describe('parseCandidate', () => {
  it('reads JSON text or an object, and refuses anything else', () => {
    const c = { candidate: 'candidate:1', sdpMid: '0', sdpMLineIndex: 0 };
    expect(parseCandidate(JSON.stringify(c))).toEqual(c);
    expect(parseCandidate(c)).toEqual(c);
    expect(parseCandidate('not json')).toBeNull();
    expect(parseCandidate({ sdpMid: '0' })).toBeNull();
  });
});
