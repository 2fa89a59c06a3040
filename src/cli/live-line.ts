const CLEAR_LINE = '\r\x1b[2K';

/** One status line that updates in place on a terminal; elsewhere only whole lines are written. */
export interface LiveLine {
  /** Replaces the status line (a terminal only; ignored elsewhere). */
  set(text: string): void;
  /** Writes a permanent line above the status line (everywhere). */
  log(line: string): void;
  /** Clears the status line so what follows starts on a clean line. */
  done(): void;
}

/**
 * A live status line on `write` (stderr, usually): redrawn in place on a terminal, at most every
 * `redrawMs`; on a pipe or a CI log nothing but the `log` lines, so the output stays readable.
 */
export function liveLine(write: (text: string) => void, isTTY: boolean, redrawMs = 100, now: () => number = Date.now): LiveLine {
  let current = '';
  let shownAtMs = -Infinity;
  return {
    set(text) {
      if (!isTTY) return;
      current = text;
      if (now() - shownAtMs < redrawMs) return;
      shownAtMs = now();
      write(`${CLEAR_LINE}${text}`);
    },
    log(line) {
      if (!isTTY) return write(`${line}\n`);
      write(`${CLEAR_LINE}${line}\n${current}`);
    },
    done() {
      if (isTTY && current) write(CLEAR_LINE);
      current = '';
    },
  };
}
