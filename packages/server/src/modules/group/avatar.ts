import type { OverlayOptions } from 'sharp';
import { AVATAR_SIZE } from '@sparrow/protocol';
import { loadSharp } from '../../lib/lazy';
import type { Storage } from '../../storage/storage';

const TILE_COLORS = ['#1AAD19', '#2F80ED', '#F2994A', '#9B51E0', '#EB5757', '#219653', '#56CCF2', '#F2C94C', '#BB6BD9'];

/** A coloured square with the member's initial, for members without an avatar. */
function initialTile(name: string, size: number, index: number): Promise<Buffer> {
  const initial = ([...name.trim()][0] ?? '?').replace(/[<&>"']/g, '');
  const color = TILE_COLORS[index % TILE_COLORS.length]!;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect width="100%" height="100%" fill="${color}"/><text x="50%" y="50%" dy="0.35em" text-anchor="middle" font-family="Noto Sans CJK SC, sans-serif" font-size="${Math.round(size * 0.5)}" fill="#fff">${initial}</text></svg>`;
  return loadSharp()(Buffer.from(svg)).png().toBuffer();
}

/** The storage key inside an avatar URL of ours (`/storage/ab/<hash>.webp`), or null. */
function storageKey(url: string): string | null {
  const m = /^\/storage\/([0-9a-f]{2}\/[0-9a-f]{64}\.[a-z0-9]+)$/.exec(url);
  return m ? m[1]! : null;
}

/**
 * A group avatar drawn from up to nine members' avatars in a grid (2×2 up to four, 3×3 beyond),
 * as WeChat draws one; returns the webp bytes.
 */
export async function composeGroupAvatar(
  storage: Storage,
  members: Array<{ avatar: string; name: string }>,
): Promise<Buffer> {
  const shown = members.slice(0, 9);
  const cols = shown.length <= 4 ? 2 : 3;
  const gap = 6;
  const tile = Math.floor((AVATAR_SIZE - gap * (cols + 1)) / cols);
  const rows = Math.ceil(shown.length / cols);
  const top = Math.floor((AVATAR_SIZE - (rows * tile + (rows - 1) * gap)) / 2);
  const layers: OverlayOptions[] = [];
  for (let i = 0; i < shown.length; i++) {
    const m = shown[i]!;
    let input: Buffer | null = null;
    const key = storageKey(m.avatar);
    if (key) {
      const found = await storage.open(key);
      if (found) {
        const chunks: Buffer[] = [];
        for await (const chunk of found.stream) chunks.push(chunk as Buffer);
        input = await loadSharp()(Buffer.concat(chunks))
          .resize(tile, tile, { fit: 'cover' })
          .png()
          .toBuffer()
          .catch(() => null);
      }
    }
    input ??= await initialTile(m.name, tile, i);
    const row = Math.floor(i / cols);
    const inRow = row === rows - 1 ? shown.length - row * cols : cols;
    const left = Math.floor((AVATAR_SIZE - (inRow * tile + (inRow - 1) * gap)) / 2) + (i % cols) * (tile + gap);
    layers.push({ input, left, top: top + row * (tile + gap) });
  }
  return loadSharp()({ create: { width: AVATAR_SIZE, height: AVATAR_SIZE, channels: 3, background: '#DDDEE0' } })
    .composite(layers)
    .webp({ quality: 85 })
    .toBuffer();
}
