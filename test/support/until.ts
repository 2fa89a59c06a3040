/**
 * Waits until `condition()` holds, one turn of the event loop at a time, for I/O a test cannot put on
 * its clock (a loopback request arriving, a socket closing). It never sleeps: the cap counts turns,
 * not milliseconds, and only turns a hang into a failure that says what never happened.
 */
export async function until(condition: () => boolean, what = 'the condition', maxTurns = 1_000_000): Promise<void> {
  for (let turn = 0; turn < maxTurns; turn++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (!condition()) throw new Error(`waited ${maxTurns} turns of the event loop for ${what}, in vain`);
}

/** A promise a test resolves by hand: an upstream reply held until the test lets it go. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
