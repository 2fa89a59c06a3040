import type { Clock } from '../../types.js';
import type { MaybePromise } from '../../store/maybe-promise.js';
import type { BreakerStateStore, SharedBreakerState } from '../../store/breaker-state.js';

/**
 * A probe's lease covers its attempt too once handed out: a prober that dies mid-attempt holds the
 * fleet's probe this long at most (the default provider timeout), and a slower attempt may see a
 * second probe go out.
 */
const PROBE_ATTEMPT_MS = 60_000;

type StoreOp = (nowMs: number) => MaybePromise<SharedBreakerState>;

/** Where a breaker of this process finds the fleet's (`breaker.shared: true`). */
export interface SharedBreakerOptions {
  store: BreakerStateStore;
  /** Names this process in the store (who holds the probe). */
  processId: string;
}

/**
 * One breaker's link to the fleet's state in the store. The breaker decides with its own rolling
 * window as before; what it decides (open, closed after its probe) is published, and what the fleet
 * decided is adopted: on every publish's reply, and on `refresh` (each bucket rotation). Half-open,
 * a process may send the probe only while it holds the fleet's probe lease, asked for when a call
 * wants it. While the store is out of reach the breaker acts alone, as an unshared one does, and a
 * decision it could not publish is published on the next refresh.
 */
export class SharedBreakerLink {
  private probeUntilMs = 0;
  private asking = false;
  /** Bumped by every publish: a read issued before one is stale by the time it answers. */
  private seq = 0;
  private unsent: StoreOp | undefined;
  private stopped = false;

  constructor(
    private readonly key: string,
    private readonly o: SharedBreakerOptions,
    private readonly clock: Clock,
    private readonly resetTimeoutMs: number,
    private readonly adopt: (state: SharedBreakerState) => void,
  ) {}

  /** Whether this process holds the fleet's half-open probe. */
  holdsProbe(): boolean {
    return this.probeUntilMs > this.clock.now();
  }

  /** Asks for the fleet's probe (one ask at a time); the call asking is skipped, a later one probes. */
  requestProbe(): void {
    if (this.asking || this.stopped) return;
    this.asking = true;
    void this.send((now) => this.o.store.takeProbe(this.key, this.o.processId, this.resetTimeoutMs, now), this.seq).then(
      () => (this.asking = false),
      () => {
        this.asking = false;
        // The fleet is out of reach: probe as this process's own breaker would.
        this.probeUntilMs = this.clock.now() + this.resetTimeoutMs;
      },
    );
  }

  /** The probe went out: its lease must now cover the attempt. */
  usedProbe(): void {
    const leaseMs = this.resetTimeoutMs + PROBE_ATTEMPT_MS;
    this.probeUntilMs = this.clock.now() + leaseMs;
    void this.send((now) => this.o.store.takeProbe(this.key, this.o.processId, leaseMs, now), this.seq).catch(() => {});
  }

  publishOpen(untilMs: number): void {
    this.probeUntilMs = 0;
    this.publish((now) => this.o.store.openBreaker(this.key, this.o.processId, untilMs, now));
  }

  /** After this process's probe succeeded. */
  publishClose(): void {
    this.probeUntilMs = 0;
    this.publish((now) => this.o.store.closeBreaker(this.key, this.o.processId, now));
  }

  /** Adopts the fleet's state, or first publishes a decision the store missed. */
  refresh(): void {
    if (this.stopped) return;
    const unsent = this.unsent;
    if (unsent) {
      this.unsent = undefined;
      this.publish(unsent);
      return;
    }
    void this.send((now) => this.o.store.readBreaker(this.key, now), this.seq).catch(() => {});
  }

  stop(): void {
    this.stopped = true;
  }

  private publish(op: StoreOp): void {
    void this.send(op, ++this.seq).catch(() => {
      if (!this.stopped) this.unsent = op;
    });
  }

  private async send(op: StoreOp, seq: number): Promise<void> {
    const state = await op(this.clock.now());
    if (this.stopped) return;
    this.probeUntilMs = state.state === 'open' && state.prober === this.o.processId ? state.probeUntilMs ?? 0 : 0;
    if (seq === this.seq) this.adopt(state);
  }
}
