import { settingsStore } from '../stores/settings';

/** `ring`: a call is ringing me. `ringback`: my call is ringing the peer. */
export type Tone = 'ring' | 'ringback';

interface Pattern {
  periodMs: number;
  /** [start s, length s, frequency Hz] within a period. */
  notes: readonly (readonly [number, number, number])[];
  vibrate?: number[];
}

const PATTERNS: Record<Tone, Pattern> = {
  // Two short chimes, again every two seconds.
  ring: {
    periodMs: 2_000,
    notes: [
      [0, 0.25, 988],
      [0.3, 0.25, 784],
      [0.7, 0.25, 988],
      [1.0, 0.25, 784],
    ],
    vibrate: [800, 1_200],
  },
  // The ringback tone of Chinese networks: 450 Hz, one second on, four off.
  ringback: { periodMs: 5_000, notes: [[0, 1, 450]] },
};

let context: AudioContext | null = null;
const canVibrate = () => typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function';
let timer: ReturnType<typeof setInterval> | null = null;
let playing: Tone | null = null;

function audio(): AudioContext | null {
  if (typeof AudioContext !== 'function') return null;
  context ??= new AudioContext();
  // Browsers hold sound back until the page has been tapped; nothing is lost but the tone.
  void context.resume().catch(() => undefined);
  return context;
}

function playPeriod(ctx: AudioContext, pattern: Pattern): void {
  const t0 = ctx.currentTime + 0.05;
  for (const [start, length, hz] of pattern.notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = hz;
    // Soft edges: no click at either end of a note.
    gain.gain.setValueAtTime(0, t0 + start);
    gain.gain.linearRampToValueAtTime(0.2, t0 + start + 0.02);
    gain.gain.setValueAtTime(0.2, t0 + start + length - 0.03);
    gain.gain.linearRampToValueAtTime(0, t0 + start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t0 + start);
    osc.stop(t0 + start + length);
  }
}

/**
 * Plays a call tone until `stopTone`, made with WebAudio (no sound file to load). The ring of a
 * call to me follows the user's settings (docs/product.md §3 App setting): its sound only when voiceStatus
 * is on, vibration when vibrateStatus is on and the device can.
 */
export function playTone(tone: Tone): void {
  if (playing === tone) return;
  stopTone();
  playing = tone;
  const pattern = PATTERNS[tone];
  const { voiceStatus, vibrateStatus } = settingsStore.getState().appSetting;
  const sound = tone === 'ringback' || voiceStatus;
  const vibrate = tone === 'ring' && vibrateStatus && pattern.vibrate !== undefined && canVibrate();
  const tick = () => {
    const ctx = sound ? audio() : null;
    if (ctx) playPeriod(ctx, pattern);
    if (vibrate) navigator.vibrate(pattern.vibrate ?? 0);
  };
  tick();
  timer = setInterval(tick, pattern.periodMs);
}

export function stopTone(): void {
  if (timer !== null) clearInterval(timer);
  timer = null;
  if (playing === 'ring' && canVibrate()) navigator.vibrate(0);
  playing = null;
  // Notes already scheduled stop with the context's suspension.
  void context?.suspend().catch(() => undefined);
}
