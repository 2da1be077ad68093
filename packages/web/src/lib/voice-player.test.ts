import { describe, expect, it, vi } from 'vitest';
import { createVoicePlayer, type AudioLike } from './voice-player';

function fakeAudio(opts: { refuse?: boolean } = {}) {
  const audio: AudioLike & { log: string[] } = {
    src: '',
    log: [],
    onended: null,
    onerror: null,
    play: vi.fn(function (this: void) {
      audio.log.push(`play ${audio.src}`);
      return opts.refuse ? Promise.reject(new Error('NotAllowedError')) : Promise.resolve();
    }),
    pause: vi.fn(() => audio.log.push('pause')),
  };
  return audio;
}

describe('voice player', () => {
  it('plays one clip at a time: a second clip stops the first', () => {
    const audio = fakeAudio();
    const player = createVoicePlayer(() => audio);
    player.toggle('a', '/storage/a.webm');
    expect(player.getState().playing).toBe('a');
    player.toggle('b', '/storage/b.webm');
    expect(player.getState().playing).toBe('b');
    expect(audio.log).toEqual(['pause', 'play /storage/a.webm', 'pause', 'play /storage/b.webm']);
  });

  it('tapping the playing clip stops it; the end of a clip clears it', () => {
    const audio = fakeAudio();
    const player = createVoicePlayer(() => audio);
    const seen: Array<string | null> = [];
    player.subscribe(() => seen.push(player.getState().playing));
    player.toggle('a', '/a');
    player.toggle('a', '/a');
    player.toggle('a', '/a');
    audio.onended?.(new Event('ended'));
    expect(seen).toEqual(['a', null, 'a', null]);
  });

  it('marks a clip the browser refuses to play as failed', async () => {
    const player = createVoicePlayer(() => fakeAudio({ refuse: true }));
    player.toggle('a', '/a');
    await Promise.resolve();
    await Promise.resolve();
    expect(player.getState()).toEqual({ playing: null, failed: 'a' });
  });
});
