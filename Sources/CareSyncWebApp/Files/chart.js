// Small SVG charts: a bar chart of daily figures and a line chart of dated values.
import { svg } from './dom.js';

/** Rounded tick values from 0 to at least `max`. */
function ticks(max, count = 4) {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [];
  for (let v = 0; v < max + step / 2; v += step) out.push(v);
  if (out[out.length - 1] < max) out.push(out[out.length - 1] + step);
  return out;
}

/** Ticks spanning [min, max] (not from zero). */
function rangeTicks(min, max, count = 4) {
  if (min === max) { min -= 1; max += 1; }
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [];
  for (let v = Math.floor(min / step) * step; v < max + step; v += step) out.push(v);
  return out;
}

function frame(width, height, label) {
  return svg('svg', {
    class: 'chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label,
  });
}

/** Room for the axis titles, when given, around `margin`. */
function titled(margin, xTitle, yTitle) {
  return { ...margin, left: margin.left + (yTitle ? 16 : 0), bottom: margin.bottom + (xTitle ? 16 : 0) };
}

/** The axis titles: `yTitle` turned along the value axis, `xTitle` centred under the plot. */
function axisTitles(root, { width, height, margin, xTitle, yTitle }) {
  const plotMiddle = margin.top + (height - margin.top - margin.bottom) / 2;
  if (yTitle) {
    root.append(svg('text', { class: 'axis-title y-title', x: 0, y: 0, 'text-anchor': 'middle', 'dominant-baseline': 'hanging',
      transform: `translate(2 ${plotMiddle}) rotate(-90)`, text: yTitle }));
  }
  if (xTitle) {
    root.append(svg('text', { class: 'axis-title x-title', x: margin.left + (width - margin.left - margin.right) / 2,
      y: height - 3, 'text-anchor': 'middle', text: xTitle }));
  }
}

/**
 * Bars, one per item `{key, label, value}` (value null: no data), with a y axis.
 * Each bar carries `data-key` and `data-value` and a <title> for pointers.
 */
export function barChart({ width, height, items, label, format, tickLabel, describe, xTitle, yTitle }) {
  const margin = titled({ top: 12, right: 8, bottom: 28, left: 52 }, xTitle, yTitle);
  const root = frame(width, height, label);
  const plotW = Math.max(10, width - margin.left - margin.right);
  const plotH = Math.max(10, height - margin.top - margin.bottom);
  const max = Math.max(0, ...items.map((i) => i.value ?? 0));
  const scale = ticks(max);
  const top = scale[scale.length - 1] || 1;
  const y = (v) => margin.top + plotH - (v / top) * plotH;
  const axis = svg('g', { class: 'axis', 'aria-hidden': 'true' });
  for (const t of scale) {
    axis.append(svg('line', { class: 'grid', x1: margin.left, x2: margin.left + plotW, y1: y(t), y2: y(t) }));
    axis.append(svg('text', { class: 'tick', x: margin.left - 6, y: y(t), 'text-anchor': 'end', 'dominant-baseline': 'middle', text: format(t) }));
  }
  root.append(axis);
  const slot = plotW / Math.max(1, items.length);
  const barW = Math.max(2, slot * 0.7);
  const every = Math.max(1, Math.ceil(34 / slot));
  const bars = svg('g', { class: 'bars' });
  items.forEach((item, n) => {
    const x = margin.left + n * slot + (slot - barW) / 2;
    if (item.value !== null && item.value !== undefined) {
      const h = Math.max(item.value > 0 ? 1 : 0, (item.value / top) * plotH);
      bars.append(svg('rect', {
        class: 'bar', x, y: margin.top + plotH - h, width: barW, height: h,
        dataset: { key: item.key, value: String(item.value) },
      }, svg('title', { text: describe(item) })));
    } else {
      bars.append(svg('rect', {
        class: 'bar empty', x, y: margin.top + plotH - 1, width: barW, height: 1,
        dataset: { key: item.key, value: '' },
      }, svg('title', { text: describe(item) })));
    }
    if (n % every === 0 || n === items.length - 1 && items.length <= 8) {
      bars.append(svg('text', {
        class: 'tick', x: x + barW / 2, y: margin.top + plotH + 18, 'text-anchor': 'middle', 'aria-hidden': 'true', text: tickLabel(item),
      }));
    }
  });
  root.append(bars);
  axisTitles(root, { width, height, margin, xTitle, yTitle });
  return root;
}

/**
 * Points `{key, time (ms), value}` joined in time order, with value and time axes.
 * Each point carries `data-key` and `data-value` and a <title>.
 */
export function lineChart({ width, height, points, label, format, timeLabel, timeTicks = [], describe, xTitle, yTitle }) {
  const margin = titled({ top: 14, right: 16, bottom: 28, left: 56 }, xTitle, yTitle);
  const root = frame(width, height, label);
  const plotW = Math.max(10, width - margin.left - margin.right);
  const plotH = Math.max(10, height - margin.top - margin.bottom);
  const sorted = [...points].sort((a, b) => a.time - b.time);
  const values = sorted.map((p) => p.value);
  const vt = rangeTicks(Math.min(...values, Infinity) === Infinity ? 0 : Math.min(...values), values.length ? Math.max(...values) : 1);
  const vMin = vt[0], vMax = vt[vt.length - 1];
  let tMin = sorted.length ? sorted[0].time : Date.now(), tMax = sorted.length ? sorted[sorted.length - 1].time : Date.now();
  const pad = Math.max(86400000, (tMax - tMin) * 0.05);
  tMin -= pad; tMax += pad;
  const x = (t) => margin.left + ((t - tMin) / (tMax - tMin)) * plotW;
  const y = (v) => margin.top + plotH - ((v - vMin) / (vMax - vMin)) * plotH;
  const axis = svg('g', { class: 'axis', 'aria-hidden': 'true' });
  for (const t of vt) {
    axis.append(svg('line', { class: 'grid', x1: margin.left, x2: margin.left + plotW, y1: y(t), y2: y(t) }));
    axis.append(svg('text', { class: 'tick', x: margin.left - 6, y: y(t), 'text-anchor': 'end', 'dominant-baseline': 'middle', text: format(t) }));
  }
  // Time labels at the given instants (one per test day), skipping any closer than 64 px to the last drawn.
  let lastX = -Infinity;
  for (const t of timeTicks) {
    const at = x(t);
    if (at - lastX < 64 || at < margin.left || at > margin.left + plotW) continue;
    lastX = at;
    axis.append(svg('text', { class: 'tick', x: at, y: margin.top + plotH + 18, 'text-anchor': 'middle', text: timeLabel(t) }));
  }
  root.append(axis);
  if (sorted.length > 1) {
    root.append(svg('polyline', { class: 'line', points: sorted.map((p) => `${x(p.time)},${y(p.value)}`).join(' ') }));
  }
  const dots = svg('g', { class: 'points' });
  for (const p of sorted) {
    dots.append(svg('circle', { class: 'point', cx: x(p.time), cy: y(p.value), r: 4, dataset: { key: p.key, value: String(p.value) } },
      svg('title', { text: describe(p) })));
  }
  root.append(dots);
  axisTitles(root, { width, height, margin, xTitle, yTitle });
  return root;
}
