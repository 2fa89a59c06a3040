import { describe, expect, it } from 'vitest';
import { parseFlags, wholeNumberFlag } from '../../src/cli/args.js';
import { UsageError } from '../../src/cli/command.js';
import { liveLine } from '../../src/cli/live-line.js';
import { percentile, table } from '../../src/cli/table.js';

describe('liveLine', () => {
  it('redraws one line in place on a terminal, at most every redrawMs, and keeps logged lines above it', () => {
    const written: string[] = [];
    let t = 0;
    const line = liveLine((s) => void written.push(s), true, 100, () => t);
    line.set('a');
    line.set('b'); // too soon: not drawn
    t = 100;
    line.set('c');
    line.log('phase 2');
    line.done();
    expect(written).toEqual(['\r\x1b[2Ka', '\r\x1b[2Kc', '\r\x1b[2Kphase 2\nc', '\r\x1b[2K']);
  });

  it('writes only the logged lines, plainly, anywhere else', () => {
    const written: string[] = [];
    const line = liveLine((s) => void written.push(s), false);
    line.set('status');
    line.log('phase 1');
    line.done();
    expect(written).toEqual(['phase 1\n']);
  });
});

describe('CLI helpers', () => {
  it('aligns columns, numbers to the right', () => {
    expect(table([['target', 'n'], ['openai', '12'], ['a', '3']], 'lr')).toEqual(['target   n', 'openai  12', 'a        3']);
  });

  it('takes the nearest-rank percentile', () => {
    expect(percentile([4, 1, 3, 2], 50)).toBe(2);
    expect(percentile(Array.from({ length: 20 }, (_, i) => i + 1), 95)).toBe(19);
    expect(percentile([], 50)).toBeUndefined();
  });

  it('turns a parseArgs error into a one-line UsageError, and checks whole numbers', () => {
    expect(() => parseFlags(() => { throw new TypeError("Unknown option '--x'. To specify a positional argument starting with a '-', place it at the end"); }))
      .toThrow(new UsageError("Unknown option '--x'"));
    expect(wholeNumberFlag('port', '0', 0, 65_535)).toBe(0);
    expect(wholeNumberFlag('port', undefined)).toBeUndefined();
    expect(() => wholeNumberFlag('port', '65536', 0, 65_535)).toThrow(/--port expects a whole number from 0 to 65535, got "65536"/);
    expect(() => wholeNumberFlag('calls', '-3')).toThrow(/--calls expects a whole number of at least 1/);
  });
});
