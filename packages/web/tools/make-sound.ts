import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Writes the new-message sound (docs/product.md §7 "a static notification sound file"): two soft sine
 * notes, E6 then A5, with a quick attack and an exponential fade, as 16-bit mono PCM WAV.
 * `npx tsx packages/web/tools/make-sound.ts` regenerates public/sounds/message.wav.
 */
const RATE = 22_050;
const notes: Array<{ freq: number; start: number; length: number }> = [
  { freq: 1318.5, start: 0, length: 0.16 },
  { freq: 880, start: 0.11, length: 0.32 },
];
const total = Math.ceil(RATE * 0.45);

export function synthesize(): Float32Array {
  const out = new Float32Array(total);
  for (const n of notes) {
    const first = Math.floor(n.start * RATE);
    const count = Math.floor(n.length * RATE);
    for (let i = 0; i < count && first + i < total; i++) {
      const t = i / RATE;
      const attack = Math.min(1, t / 0.006);
      const fade = Math.exp((-5 * t) / n.length);
      // A quieter octave above gives the bell-like colour.
      const wave = Math.sin(2 * Math.PI * n.freq * t) + 0.25 * Math.sin(4 * Math.PI * n.freq * t);
      out[first + i]! += 0.32 * attack * fade * wave;
    }
  }
  return out;
}

export function wav(samples: Float32Array): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, s)) * 32_767), i * 2));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = fileURLToPath(new URL('../public/sounds/message.wav', import.meta.url));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, wav(synthesize()));
  console.log(`wrote ${file}`);
}
