import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const HEIGHT = 220;
const DAY_S = 86_400;

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
  useEffect(() => {
    const el = box.current;
    if (!el) return;
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
            stroke: '#666666',
            grid: { show: false },
            values: (_u, splits) => splits.map((s) => dayLabel.format(new Date(s * 1000))),
          },
          {
            stroke: '#666666',
            grid: { stroke: '#e5e5e5' },
            values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? String(s) : '')),
          },
        ],
        series: [
          {},
          {
            label: series,
            stroke: '#107c10',
            fill: 'rgba(16, 124, 16, 0.35)',
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
  }, [days, series, locale]);
  return <div ref={box} className="manage-chart-plot" aria-hidden="true" />;
}
