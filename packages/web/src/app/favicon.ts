import { badgeText } from '../lib/conversation-list';

/** The icon is drawn at this size, px: sharp enough for a high-density tab strip. */
const SIZE = 64;
/** The badge's red, as the tab bar's (lists.css `.badge`). */
const BADGE_RED = '#d93025';

let original: { href: string; type: string } | null = null;
/** Counts asked after this one's image loaded replace it. */
let drawing = 0;

function iconLink(): HTMLLinkElement | null {
  return document.querySelector<HTMLLinkElement>('link[rel="icon"]');
}

/** The page's icon with a red badge of `count` in its corner. */
async function badged(href: string, count: number): Promise<string> {
  const icon = new Image();
  icon.src = href;
  await icon.decode();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = SIZE;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d canvas');
  ctx.drawImage(icon, 0, 0, SIZE, SIZE);
  const text = badgeText(count);
  const radius = SIZE * 0.3;
  const width = Math.max(radius * 2, text.length * SIZE * 0.2 + SIZE * 0.16);
  const left = SIZE - width;
  ctx.fillStyle = BADGE_RED;
  ctx.beginPath();
  ctx.roundRect(left, 0, width, radius * 2, radius);
  ctx.fill();
  ctx.fillStyle = '#fff';
  ctx.font = `bold ${Math.round(text.length > 2 ? SIZE * 0.3 : SIZE * 0.4)}px sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, left + width / 2, radius + 1);
  return canvas.toDataURL('image/png');
}

/**
 * Shows the unread count on the page's icon (the tab's favicon), drawn on a canvas over the icon
 * the page was served with; 0 puts that icon back.
 */
export function showUnreadOnIcon(count: number): void {
  const link = iconLink();
  if (!link) return;
  original ??= { href: link.href, type: link.type };
  const mine = ++drawing;
  if (count <= 0) {
    link.type = original.type;
    link.href = original.href;
    return;
  }
  badged(original.href, count).then(
    (url) => {
      if (mine !== drawing) return;
      link.type = 'image/png';
      link.href = url;
    },
    () => {
      // An icon that cannot be drawn stays as it is; the title still carries the count.
    },
  );
}
