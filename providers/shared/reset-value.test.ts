import { describe, expect, it } from 'vitest';
import { parseGoDurationMs, resetValueMs } from './reset-value.js';

const NOW = Date.parse('2026-11-29T12:00:00Z');

describe('parseGoDurationMs', () => {
  it.each([
    ['20ms', 20], ['1s', 1000], ['6m0s', 360_000], ['12ms', 12], ['9ms', 9], ['18.642s', 18_642],
    ['1h2m3s', 3_723_000], ['1.5s', 1500], ['2m59.56s', 179_560], ['0s', 0], ['0', 0], ['300ms', 300], ['1m', 60_000],
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseGoDurationMs(text)).toBeCloseTo(ms, 6);
  });

  it.each(['', 'soon', '5 s', 'ms', '1x'])('rejects %j', (text) => {
    expect(parseGoDurationMs(text)).toBeUndefined();
  });
});

describe('resetValueMs', () => {
  it.each([
    ['a Go duration', '6m0s', 360_000],
    ['an RFC 3339 timestamp in the future', '2026-11-29T12:00:07Z', 7000],
    ['an RFC 3339 timestamp with an offset', '2026-11-29T13:00:07+01:00', 7000],
    ['an RFC 3339 timestamp in the past (never negative)', '2026-11-29T11:59:00Z', 0],
    ['a Unix timestamp in seconds (sleep until it)', String(NOW / 1000 + 42), 42_000],
    ['a Unix timestamp in milliseconds', String(NOW + 1500), 1500],
    ['bare seconds', '30', 30_000],
  ])('reads %s', (_what, value, ms) => {
    expect(resetValueMs(value, NOW)).toBe(ms);
  });

  it.each([[null], [undefined], [''], ['whenever']])('gives undefined for %j', (value) => {
    expect(resetValueMs(value as string, NOW)).toBeUndefined();
  });
});
