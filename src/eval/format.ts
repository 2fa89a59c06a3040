/** Number formats shared by the terminal and HTML reports. */

/** `0.8333` → `83.3%`. */
export function formatRate(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

/** Milliseconds, rounded: `1234` → `1,234 ms`; null → `-`. */
export function formatMs(ms: number | null | undefined): string {
  return ms === null || ms === undefined || Number.isNaN(ms) ? '-' : `${Math.round(ms).toLocaleString('en-US')} ms`;
}

/** Whole numbers with thousands separators. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** USD with enough digits to tell small costs apart: `$12.35`, `$0.0042`; null → `unknown`. */
export function formatUsd(usd: number | null): string {
  if (usd === null) return 'unknown';
  if (usd === 0) return '$0';
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  if (usd < 1e-6) return '<$0.000001';
  const digits = Math.max(2, 1 - Math.floor(Math.log10(usd)));
  return `$${usd.toFixed(digits)}`;
}

/** A sum that leaves out runs of unknown usage reads as a lower bound: `≥1,234`, `≥$0.42`. */
export function atLeast(text: string, unknownRuns: number): string {
  return unknownRuns > 0 && text !== 'unknown' ? `≥${text}` : text;
}

/** A share in 0..1 with two decimals; null → `-`. */
export function formatShare(share: number | null): string {
  return share === null || Number.isNaN(share) ? '-' : share.toFixed(2);
}

/** `{ quota_exhausted: 8, server: 2 }` → `quota_exhausted ×8, server ×2`; empty → `-`. */
export function formatCounts(counts: Partial<Record<string, number>>): string {
  const parts = Object.entries(counts).filter(([, n]) => (n ?? 0) > 0).map(([k, n]) => `${k} ×${n}`);
  return parts.length === 0 ? '-' : parts.join(', ');
}
