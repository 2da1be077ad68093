import { settingsStore } from '../stores/settings';

/** The new-message sound, at the path Raingad 6.x clients play it from too (docs/product.md §7). */
const SOUND_URL = `${import.meta.env.BASE_URL}static/voice/notify.mp3`;
const VIBRATE_MS = 200;
/** A burst of messages rings once. */
const QUIET_MS = 800;

let audio: HTMLAudioElement | null = null;
let lastRing = 0;

/**
 * The new-message alert, as the user's settings ask (docs/product.md §3 App setting): the sound when
 * voiceStatus is on, a short vibration when vibrateStatus is on and the device can.
 */
export function ringForMessage(now = Date.now()): void {
  if (now - lastRing < QUIET_MS) return;
  lastRing = now;
  const { voiceStatus, vibrateStatus } = settingsStore.getState().appSetting;
  if (voiceStatus) {
    audio ??= new Audio(SOUND_URL);
    audio.currentTime = 0;
    audio.play().catch(() => {
      // Browsers refuse sound before the first tap on the page; the badge still tells.
    });
  }
  if (vibrateStatus && typeof navigator.vibrate === 'function') navigator.vibrate(VIBRATE_MS);
}
