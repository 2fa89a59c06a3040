export { table } from '../report/text-table.js';
export { percentile } from '../report/percentile.js';

/** `1234.5` → `1,235 ms`; undefined → `-`. */
export function ms(value: number | undefined): string {
  return value === undefined ? '-' : `${Math.round(value).toLocaleString('en-US')} ms`;
}
