/**
 * Lays rows out as aligned columns, two spaces apart: `align` has one letter a column, `r` for
 * right-aligned (numbers), anything else left-aligned. Widths count characters, not UTF-16 units.
 */
export function table(rows: readonly string[][], align: string): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows.map((row) => row
    .map((cell, i) => {
      const pad = ' '.repeat((widths[i] ?? 0) - [...cell].length);
      return align[i] === 'r' ? pad + cell : cell + pad;
    })
    .join('  ')
    .trimEnd());
}

/** The nearest-rank percentile (p50 of [1, 2, 3, 4] is 2); undefined for no values. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

/** `1234.5` → `1,235 ms`; undefined → `-`. */
export function ms(value: number | undefined): string {
  return value === undefined ? '-' : `${Math.round(value).toLocaleString('en-US')} ms`;
}
