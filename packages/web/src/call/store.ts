import type { Message } from '@sparrow/protocol';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { api } from '../api';
import { deliver, forEachEngine } from '../chat/registry';
import { conversationKeyOf, type ContactKey } from '../lib/conversation-list';
import { contacts, contactsStore } from '../stores/contacts';
import { sessionStore } from '../stores/session';
import { listCameras, openCamera, openMedia } from './media';
import { playTone, stopTone } from './ringtone';
import { CallSession, type CallDeps, type CallPeer, type CallSnapshot } from './session';
import type { CallSignal, CallType } from './signal';

export interface CallState {
  /** The call on screen, live or just ended; null when there is none. */
  call: CallSnapshot | null;
  /** Sound from the speaker (true) or the earpiece, where the browser lets us choose. */
  speaker: boolean;
}

/** The call in progress. It lives outside React, so it goes on while the user moves between pages. */
export const callStore = createStore<CallState>()(() => ({ call: null, speaker: true }));

export function useCall<T>(selector: (s: CallState) => T): T {
  return useStore(callStore, selector);
}

let session: CallSession | null = null;
/** The conversation whose unread count the ringing call raised (the server's count too). */
let ringingUnread: ContactKey | null = null;
/** The msg_id of the call's message once the chat has it. */
let shownMsgId: number | null = null;

const me = () => sessionStore.getState().user?.user_id ?? null;

/**
 * A call's outcome, told by a signal, in the chats that hold the call's message: the stored
 * message stays the caller's and takes the signal's summary. The signal itself comes from
 * whoever acted, so it is not the bubble: a callee's hangup would move the caller's bubble.
 */
export function showCallOutcome(signal: Message): void {
  forEachEngine((engine) => {
    const held = engine.message(signal.msg_id);
    if (held?.type === 'webrtc' && signal.type === 'webrtc')
      engine.receive({ ...held, content: signal.content, extends: signal.extends });
  });
}

/** The chat shows the call's message: added to the list when placed, its summary updated after. */
function showMessage(message: Message): void {
  if (shownMsgId === message.msg_id) {
    showCallOutcome(message);
    return;
  }
  shownMsgId = message.msg_id;
  deliver([message]);
  contacts.applyMessage(message, { openKey: null });
}

function onChange(snapshot: CallSnapshot): void {
  const before = callStore.getState().call;
  if (before?.id === snapshot.id && before.phase === 'incoming' && snapshot.phase !== 'incoming') {
    // Answered or refused (here or on another device): the server no longer counts it unread.
    const answered = snapshot.end !== 'peerCancelled' && snapshot.end !== 'noAnswer';
    if (answered && ringingUnread !== null) {
      const row = contactsStore.getState().rows[ringingUnread];
      if (row) contacts.patch(ringingUnread, { unread: Math.max(0, row.unread - 1) });
    }
    ringingUnread = null;
  }
  if (snapshot.phase === 'incoming') playTone('ring');
  else if (snapshot.phase === 'outgoing') playTone('ringback');
  else stopTone();
  callStore.setState({ call: snapshot });
}

function deps(): CallDeps {
  return {
    send: (body) => api.sendToMsg(body, { silent: true }),
    iceConfig: () => api.iceServers(undefined, { silent: true }),
    openMedia: (type) => openMedia(type),
    openCamera: (id) => openCamera(id),
    listCameras: () => listCameras(),
    createPeer: (config) => new RTCPeerConnection(config),
    newStream: () => new MediaStream(),
    timers: {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    },
    now: () => Date.now(),
    onChange,
    onMessage: showMessage,
    warn: (...args) => console.warn(...args),
  };
}

const live = (): CallSession | null => (session && !session.ended ? session : null);

/** What the screens and the dispatcher do with calls. */
export const calls = {
  /** The call in progress, if any. */
  liveId(): string | null {
    return live()?.id ?? null;
  },

  /** Places a call (the call page, status 1). Placing the same call again does nothing. */
  place(id: string, peer: CallPeer, type: CallType): void {
    if (session?.id === id || live()) return;
    shownMsgId = null;
    ringingUnread = null;
    session = CallSession.place(id, peer, type, deps());
  },

  /**
   * A call rings me (`calling`): `ringing`, or `busy` when I am already in another call (the
   * dispatcher answers 907), or `same` for a second push of the call already ringing.
   * `countedUnread`: the call raised its conversation's unread count.
   */
  ring(message: Message, signal: CallSignal, countedUnread: boolean): 'ringing' | 'busy' | 'same' {
    const current = live();
    if (current) return current.id === signal.id ? 'same' : 'busy';
    const user = me();
    if (user === null) return 'same';
    const from = message.fromUser;
    shownMsgId = message.msg_id;
    ringingUnread = countedUnread ? conversationKeyOf(message, user) : null;
    session = CallSession.ringing(
      signal.id,
      { id: signal.fromId, name: from.displayName || from.realname, avatar: from.avatar },
      signal.type,
      deps(),
    );
    return 'ringing';
  },

  accept(): void {
    void live()?.accept();
  },
  refuse(): void {
    void live()?.refuse();
  },
  hangup(): void {
    void live()?.hangup();
  },
  toggleMute(): void {
    live()?.toggleMute();
  },
  toggleCamera(): void {
    live()?.toggleCamera();
  },
  switchCamera(): void {
    void live()
      ?.switchCamera()
      .catch((error: unknown) => console.warn('call: camera not switched', error));
  },
  toggleSpeaker(): void {
    callStore.setState((s) => ({ speaker: !s.speaker }));
  },

  /** A signal from the peer or from my other devices. */
  onSignal(signal: CallSignal): void {
    session?.handle(signal);
  },

  /** The socket came back: pushes may have been lost and the network may have changed. */
  onReconnect(): void {
    void live()?.restartIce();
  },

  /** The screen has told how the call ended: it is forgotten. */
  dismiss(id: string): void {
    if (session?.id !== id || !session.ended) return;
    session = null;
    callStore.setState({ call: null });
  },

  /** Signing out ends any call. */
  reset(): void {
    void live()?.hangup();
    session = null;
    stopTone();
    callStore.setState({ call: null, speaker: true });
  },
};

// Signing out (or another device taking over) ends the call on this device.
sessionStore.subscribe((s, prev) => {
  if (prev.token && !s.token) calls.reset();
});
