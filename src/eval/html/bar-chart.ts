import { escapeHtml, excerpt } from './escape-html.js';

/** A horizontal bar chart: one group of bars per row, one bar per series. */
export interface BarChartSpec {
  title: string;
  /** Series names, shown in a legend when there is more than one. */
  series: string[];
  /** `highlight` marks a row's label (and, with one series, its bar) in red: e.g. under the minimum pass rate. */
  rows: Array<{ label: string; values: Array<number | null>; highlight?: boolean }>;
  format: (value: number) => string;
  /** The value at the right edge. @default the largest value */
  max?: number;
  /** A vertical reference line, e.g. the minimum pass rate. */
  marker?: { value: number; label: string };
  /** A CSS class per series for its colour. @default s0, s1, s2 */
  palette?: string[];
  /** What a missing value reads as. @default 'n/a' */
  nullLabel?: string;
}

const WIDTH = 640;
const LABEL_W = 190;
const VALUE_W = 90;
const BAR_H = 14;
const GAP = 4;
const ROW_GAP = 12;
const n = (v: number) => Number(v.toFixed(1));

/**
 * Draws a chart as inline SVG (no scripts, no fonts to fetch): bars carry `<title>` tooltips and a
 * value label; a missing value is written out (`unknown`) instead of drawn as zero.
 */
export function barChart(spec: BarChartSpec): string {
  const all = spec.rows.flatMap((r) => r.values).filter((v): v is number => v !== null && Number.isFinite(v));
  const max = spec.max ?? Math.max(0, ...all, spec.marker?.value ?? 0);
  const scale = (v: number) => (max > 0 ? (Math.max(0, v) / max) * (WIDTH - LABEL_W - VALUE_W) : 0);
  const legendH = spec.series.length > 1 ? 22 : 0;
  const groupH = spec.series.length * (BAR_H + GAP) - GAP;
  const height = legendH + spec.rows.length * (groupH + ROW_GAP) + ROW_GAP + (spec.marker ? 12 : 0);
  const parts: string[] = [];
  const colour = (s: number) => spec.palette?.[s] ?? `s${s}`;

  if (legendH > 0) spec.series.forEach((name, s) => {
    const x = LABEL_W + s * 130;
    parts.push(`<rect class="swatch ${colour(s)}" x="${x}" y="4" width="12" height="12"/><text class="legend" x="${x + 16}" y="14">${escapeHtml(name)}</text>`);
  });
  spec.rows.forEach((row, r) => {
    const top = legendH + ROW_GAP / 2 + r * (groupH + ROW_GAP);
    parts.push(`<text class="label${row.highlight ? ' below' : ''}" x="${LABEL_W - 8}" y="${n(top + groupH / 2 + 4)}" text-anchor="end"><title>${escapeHtml(row.label)}</title>${escapeHtml(excerpt(row.label, 28))}</text>`);
    row.values.forEach((value, s) => {
      const y = top + s * (BAR_H + GAP);
      const series = spec.series[s] ?? '';
      if (value === null || !Number.isFinite(value)) {
        parts.push(`<text class="value missing" x="${LABEL_W + 4}" y="${n(y + BAR_H - 3)}">${escapeHtml(spec.nullLabel ?? 'n/a')}</text>`);
        return;
      }
      const w = scale(value);
      const tip = `${row.label}${series ? ` · ${series}` : ''}: ${spec.format(value)}`;
      const below = row.highlight && spec.series.length === 1 ? ' below' : '';
      parts.push(`<rect class="bar ${colour(s)}${below}" x="${LABEL_W}" y="${n(y)}" width="${n(w)}" height="${BAR_H}" rx="2"><title>${escapeHtml(tip)}</title></rect>`);
      parts.push(`<text class="value" x="${n(LABEL_W + w + 4)}" y="${n(y + BAR_H - 3)}">${escapeHtml(spec.format(value))}</text>`);
    });
  });
  if (spec.marker && max > 0) {
    const x = n(LABEL_W + scale(spec.marker.value));
    parts.push(`<line class="marker" x1="${x}" x2="${x}" y1="${legendH}" y2="${height}"><title>${escapeHtml(spec.marker.label)}</title></line>`);
    parts.push(`<text class="marker-label" x="${n(x - 4)}" y="${height - 3}" text-anchor="end">${escapeHtml(spec.marker.label)}</text>`);
  }
  parts.push(`<line class="axis" x1="${LABEL_W}" x2="${LABEL_W}" y1="${legendH}" y2="${height}"/>`);
  return `<figure class="chart-card"><figcaption>${escapeHtml(spec.title)}</figcaption>`
    + `<svg class="chart" role="img" aria-label="${escapeHtml(spec.title)}" viewBox="0 0 ${WIDTH} ${height}" width="100%" preserveAspectRatio="xMinYMin meet">`
    + `${parts.join('')}</svg></figure>`;
}
