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
