/**
 * Waits until `condition()` holds, for I/O a test cannot put on its clock (a loopback request
 * arriving, a socket closing). It checks on every turn of the event loop at first, then once a
 * millisecond, so a long wait does not spin a core the awaited work (and vitest's own module loading
 * in the main process) needs. The cap is no bound on how fast anything must be: it is far beyond
 * any loopback round trip, and only turns a hang into a failure that says what never happened.
 */
export async function until(condition: () => boolean, what = 'the condition', maxPolls = 15_000): Promise<void> {
  for (let turn = 0; turn < 1_000; turn++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  for (let poll = 0; poll < maxPolls; poll++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setTimeout(resolve, 1));
  }
  if (!condition()) throw new Error(`gave up waiting for ${what} (${maxPolls} polls, each at least 1 ms apart)`);
}

/** A promise a test resolves by hand: an upstream reply held until the test lets it go. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
