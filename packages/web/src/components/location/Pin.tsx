/** The map pin of the picker's centre and of the viewer's place: WeChat green. */
export const PIN_PATH = 'M16 1C8 1 2 7 2 15c0 10 14 26 14 26s14-16 14-26C30 7 24 1 16 1z';

export const PIN_SVG = `<svg viewBox="0 0 32 42" width="32" height="42" aria-hidden="true"><path d="${PIN_PATH}" fill="#1aad19" stroke="#0c630c" stroke-width="1.5"/><circle cx="16" cy="15" r="5.5" fill="#fff"/></svg>`;

export function Pin({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 42" width="32" height="42" aria-hidden="true">
      <path d={PIN_PATH} fill="#1aad19" stroke="#0c630c" strokeWidth="1.5" />
      <circle cx="16" cy="15" r="5.5" fill="#fff" />
    </svg>
  );
}
