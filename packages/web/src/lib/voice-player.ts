import { useCallback, useSyncExternalStore } from 'react';

/** The part of HTMLAudioElement the player uses. */
export interface AudioLike {
  src: string;
  play(): Promise<void>;
  pause(): void;
  onended: ((ev: Event) => unknown) | null;
  onerror: ((ev: Event) => unknown) | null;
}

export interface VoiceState {
  /** The message whose clip is playing, or null. */
  playing: string | null;
  /** The message whose clip could not be played, or null. */
  failed: string | null;
}

/**
 * Plays voice messages one at a time: starting a clip stops the one playing, tapping the playing
 * clip stops it. One audio element for the whole app, so two bubbles can never talk at once.
 */
export function createVoicePlayer(makeAudio: () => AudioLike) {
  let audio: AudioLike | null = null;
  let state: VoiceState = { playing: null, failed: null };
  const listeners = new Set<() => void>();
  const set = (next: VoiceState) => {
    state = next;
    for (const l of listeners) l();
  };
  const element = (): AudioLike => {
    if (audio) return audio;
    const a = makeAudio();
    a.onended = () => set({ playing: null, failed: null });
    a.onerror = () => {
      if (state.playing) set({ playing: null, failed: state.playing });
    };
    audio = a;
    return a;
  };

  return {
    /** Plays a message's clip, or stops it when it is the one playing. */
    toggle(id: string, src: string): void {
      const a = element();
      if (state.playing === id) {
        a.pause();
        set({ playing: null, failed: null });
        return;
      }
      a.pause();
      a.src = src;
      set({ playing: id, failed: null });
      a.play().catch(() => {
        // Autoplay refused or the file is gone: the bubble shows it is not playing.
        if (state.playing === id) set({ playing: null, failed: id });
      });
    },
    stop(): void {
      audio?.pause();
      if (state.playing) set({ playing: null, failed: null });
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getState: (): VoiceState => state,
  };
}

export type VoicePlayer = ReturnType<typeof createVoicePlayer>;

/** The app's one voice player. */
export const voicePlayer = createVoicePlayer(() => new Audio());

/** Whether a message's clip is playing, and the tap that plays or stops it. */
export function useVoicePlayback(id: string, src: string) {
  const state = useSyncExternalStore(voicePlayer.subscribe, voicePlayer.getState);
  const toggle = useCallback(() => voicePlayer.toggle(id, src), [id, src]);
  return { playing: state.playing === id, failed: state.failed === id, toggle };
}
