import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const HEIGHT = 220;
const DAY_S = 86_400;

/** `#rrggbb` as rgba() with the given opacity. */
function withAlpha(hex: string, alpha: number): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/** The colour scheme on <html> (data-theme), following its changes. */
function useShownScheme(): string | null {
  const root = document.documentElement;
  const [scheme, setScheme] = useState(() => root.getAttribute('data-theme'));
  useEffect(() => {
    const watch = new MutationObserver(() => setScheme(root.getAttribute('data-theme')));
    watch.observe(root, { attributes: true, attributeFilter: ['data-theme'] });
    return () => watch.disconnect();
  }, [root]);
  return scheme;
}

/** Messages per day as bars (uPlot, loaded with the dashboard only); sized to its container. */
export default function MessagesChart({
  days,
  series,
  locale,
}: {
  days: { day: string; count: number }[];
  series: string;
  locale: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const scheme = useShownScheme();
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // The canvas draws with the theme's colours (styles.css), read again when the scheme changes.
    const css = getComputedStyle(el);
    const color = (name: string) => css.getPropertyValue(name).trim();
    const [text2, line, green] = [color('--sp-text-2'), color('--sp-line'), color('--sp-green-text')];
    const xs = days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000);
    const ys = days.map((d) => d.count);
    const dayLabel = new Intl.DateTimeFormat(locale, { month: 'numeric', day: 'numeric', timeZone: 'UTC' });
    const plot = new uPlot(
      {
        width: el.clientWidth,
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        scales: {
          x: { time: true, range: (_u, min, max) => [min - DAY_S / 2, max + DAY_S / 2] },
          y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] },
        },
        axes: [
          {
            stroke: text2,
            grid: { show: false },
            values: (_u, splits) => splits.map((s) => dayLabel.format(new Date(s * 1000))),
          },
          {
            stroke: text2,
            grid: { stroke: line },
            values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? String(s) : '')),
          },
        ],
        series: [
          {},
          {
            label: series,
            stroke: green,
            fill: withAlpha(green, 0.35),
            paths: uPlot.paths.bars!({ size: [0.7, 24] }),
            points: { show: false },
          },
        ],
      },
      [xs, ys],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series, locale, scheme]);
  return <div ref={box} className="manage-chart-plot" aria-hidden="true" />;
}
