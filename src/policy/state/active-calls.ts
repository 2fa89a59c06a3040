/** Counts the calls in flight, and tells `close()` when the last one ends. */
export class ActiveCalls {
  private count = 0;
  private idle: (() => void) | undefined;

  enter(): void {
    this.count++;
  }

  leave(): void {
    if (--this.count === 0 && this.idle) {
      this.idle();
      this.idle = undefined;
    }
  }

  /** Resolves once no call is in flight. */
  drained(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => (this.idle = resolve));
  }
}
