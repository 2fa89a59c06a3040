import type { EvalProgress } from './run-eval.js';

/** Where and how progress is shown. */
export interface ProgressOptions {
  write: (text: string) => void;
  /** A terminal gets one line redrawn in place; anything else a plain line at each quarter. */
  isTTY: boolean;
  /** @default 28 */
  barWidth?: number;
  /** @default Date.now */
  now?: () => number;
  /** Minimum time between redraws on a terminal. @default 80 */
  redrawMs?: number;
}

/** Shows an eval's progress while it runs. */
export interface ProgressReporter {
  update(progress: EvalProgress): void;
  /** Clears the live line (a terminal) so the table starts on a clean line. */
  finish(): void;
}

const CLEAR_LINE = '\r\x1b[2K';

/** The bar and counts, without any terminal control codes. */
export function progressLine(p: Omit<EvalProgress, 'last'>, elapsedMs: number, barWidth = 28): string {
  const share = p.total === 0 ? 1 : p.done / p.total;
  const filled = Math.round(share * barWidth);
  const bar = `${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}`;
  const counts = `✓ ${p.passed}  ✗ ${p.failed}  ! ${p.errored}`;
  return `eval ${bar} ${p.done}/${p.total} ${String(Math.floor(share * 100)).padStart(3)}%  ${counts}  ${(elapsedMs / 1000).toFixed(1)}s`;
}

/**
 * A live progress bar on a terminal (one line on stderr, redrawn at most every `redrawMs`), or on
 * anything else a plain line at 25%, 50%, 75% and 100%, so logs stay readable.
 */
export function progressReporter(options: ProgressOptions): ProgressReporter {
  const now = options.now ?? Date.now;
  const startedAtMs = now();
  const redrawMs = options.redrawMs ?? 80;
  let lastDrawMs = -Infinity;
  let drawn = false;
  let quarter = 0;
  return {
    update(p) {
      const t = now();
      if (options.isTTY) {
        if (p.done < p.total && t - lastDrawMs < redrawMs) return;
        lastDrawMs = t;
        drawn = true;
        options.write(`${CLEAR_LINE}${progressLine(p, t - startedAtMs, options.barWidth)}`);
        return;
      }
      const reached = p.total === 0 ? 4 : Math.floor((p.done / p.total) * 4);
      if (reached <= quarter) return;
      quarter = reached;
      options.write(`${progressLine(p, t - startedAtMs, options.barWidth)}\n`);
    },
    finish() {
      if (drawn) options.write(CLEAR_LINE);
    },
  };
}
