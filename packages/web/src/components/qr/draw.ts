/**
 * Drawing QR codes with the `qrcode` package, loaded only by the pages that show a code. The
 * saved picture is a card, as WeChat saves one: avatar, name, the code and what it is for.
 */

import { hasOwnPicture } from '@sparrow/protocol';

const loadEncoder = () => import('qrcode');

/** Medium error correction: still read through a screen's glare, small enough for a phone camera. */
const OPTIONS = { errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } } as const;

/** `text` as a QR code, a PNG data URL `size` px square (quiet zone included). */
export async function codeDataUrl(text: string, size: number): Promise<string> {
  const { toDataURL } = await loadEncoder();
  return toDataURL(text, { ...OPTIONS, width: size });
}

/** What the saved card shows. */
export interface CardContent {
  /** The code's text: a Sparrow link. */
  text: string;
  title: string;
  subtitle: string;
  /** Avatar URL; '' draws the initial. */
  avatar: string;
  /** What scanning does, under the code. */
  hint: string;
  /** Until when the code works, already worded. */
  expires: string;
}

const WIDTH = 600;
const PAD = 48;
const AVATAR = 96;
const CODE = 480;
const FONT = `'PingFang SC', 'Hiragino Sans GB', 'Noto Sans CJK SC', 'Microsoft YaHei', Roboto, Arial, sans-serif`;

function loadImage(src: string): Promise<HTMLImageElement | null> {
  if (!hasOwnPicture(src)) return Promise.resolve(null);
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => resolve(null);
    img.src = src;
  });
}

/** Cuts `text` to fit `width` at the context's font, with an ellipsis. */
function fit(ctx: CanvasRenderingContext2D, text: string, width: number): string {
  if (ctx.measureText(text).width <= width) return text;
  const chars = Array.from(text);
  while (chars.length > 1 && ctx.measureText(`${chars.join('')}…`).width > width) chars.pop();
  return `${chars.join('')}…`;
}

/** The card as a PNG: avatar and name on top, the code, the hint and the expiry below. */
export async function cardPng(card: CardContent): Promise<Blob> {
  const { toCanvas } = await loadEncoder();
  const code = document.createElement('canvas');
  await toCanvas(code, card.text, { ...OPTIONS, width: CODE });
  const avatar = await loadImage(card.avatar);

  const top = PAD + AVATAR + 40;
  const height = top + CODE + 120;
  const canvas = document.createElement('canvas');
  canvas.width = WIDTH;
  canvas.height = height;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, WIDTH, height);

  ctx.save();
  ctx.beginPath();
  ctx.roundRect(PAD, PAD, AVATAR, AVATAR, 12);
  ctx.clip();
  if (avatar) ctx.drawImage(avatar, PAD, PAD, AVATAR, AVATAR);
  else {
    // The colour of Avatar's fallback (.avatar-fallback), so the picture looks like the screen.
    ctx.fillStyle = '#5b7089';
    ctx.fillRect(PAD, PAD, AVATAR, AVATAR);
    ctx.fillStyle = '#ffffff';
    ctx.font = `600 44px ${FONT}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(Array.from(card.title.trim())[0]?.toUpperCase() ?? '?', PAD + AVATAR / 2, PAD + AVATAR / 2 + 2);
  }
  ctx.restore();

  const textX = PAD + AVATAR + 24;
  const textWidth = WIDTH - textX - PAD;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = '#111111';
  ctx.font = `600 34px ${FONT}`;
  ctx.fillText(fit(ctx, card.title, textWidth), textX, PAD + (card.subtitle ? 44 : 60));
  if (card.subtitle) {
    ctx.fillStyle = '#666666';
    ctx.font = `24px ${FONT}`;
    ctx.fillText(fit(ctx, card.subtitle, textWidth), textX, PAD + 84);
  }

  ctx.drawImage(code, (WIDTH - CODE) / 2, top);

  ctx.textAlign = 'center';
  ctx.fillStyle = '#666666';
  ctx.font = `22px ${FONT}`;
  ctx.fillText(fit(ctx, card.hint, WIDTH - 2 * PAD), WIDTH / 2, top + CODE + 44);
  ctx.font = `20px ${FONT}`;
  ctx.fillText(fit(ctx, card.expires, WIDTH - 2 * PAD), WIDTH / 2, top + CODE + 80);

  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('toBlob'))), 'image/png'),
  );
}
