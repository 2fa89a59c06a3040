import type { Spread } from './stats.js';

/** A number with a sensible number of digits for a table cell. */
export function num(x: number, digits?: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'n/a' : x > 0 ? '∞' : '-∞';
  if (digits !== undefined) return x.toFixed(digits);
  const a = Math.abs(x);
  if (a >= 1000) return Math.round(x).toLocaleString('en-US');
  if (a >= 100) return x.toFixed(0);
  if (a >= 10) return x.toFixed(1);
  if (a >= 1) return x.toFixed(2);
  return x.toFixed(3);
}

/** A share as a percentage. */
export function pct(x: number, digits = 1): string {
  return Number.isFinite(x) ? `${(x * 100).toFixed(digits)}%` : 'n/a';
}

/** `median [q1–q3]`: a repeated figure with its interquartile range. */
export function withIqr(s: Spread, digits?: number, unit = ''): string {
  if (s.n <= 1) return `${num(s.median, digits)}${unit}`;
  return `${num(s.median, digits)}${unit} [${num(s.q1, digits)}–${num(s.q3, digits)}]`;
}

/** Bytes in KiB. */
export function kib(bytes: number): string {
  return `${num(bytes / 1024)} KiB`;
}

/** Milliseconds, or n/a. */
export function ms(x: number | undefined): string {
  return x === undefined || !Number.isFinite(x) ? 'n/a' : `${num(x)} ms`;
}

/** Milliseconds shown in seconds, or n/a. */
export function seconds(msValue: number | undefined): string {
  return msValue === undefined || !Number.isFinite(msValue) ? 'n/a' : `${num(msValue / 1000)} s`;
}
