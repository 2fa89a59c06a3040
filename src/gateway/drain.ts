import type { AbortLink } from '../policy/abort/abort-link.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MAX_TIMER_MS } from '../time/system-clock.js';
import { RouterError } from '../errors.js';
import type { DrainReport } from './options.js';
import type { GatewayState } from './state.js';

/** How long calls cut off at the end of a drain get to send their 503 or error frame before every connection closes. */
const CUT_OFF_GRACE_MS = 1_000;

/**
 * Requests in flight, and the graceful shutdown that waits for them: stop accepting, answer what
 * still arrives on open connections with 503 and `connection: close`, let calls in flight finish
 * within `drainMs`, then abort the rest (the router frees their budget slots and aborts their
 * upstream requests) and close every connection.
 */
export class Drain {
  private inFlight = 0;
  private readonly controllers = new Set<AbortLink>();
  private idle: (() => void) | undefined;
  private running: Promise<DrainReport> | undefined;

  constructor(private readonly app: FastifyInstance, private readonly state: GatewayState, private readonly drainMs: number) {
    // The config's drainMs is checked by its schema; createGateway's option is not. A timer past
    // MAX_TIMER_MS (or NaN, or negative) fires at once, which would cut off every call in flight.
    if (!Number.isInteger(drainMs) || drainMs < 0 || drainMs > MAX_TIMER_MS) {
      throw new RouterError('config', `createGateway: drainMs must be a whole number of ms from 0 to ${MAX_TIMER_MS} (about 24.8 days), got ${String(drainMs)}`);
    }
  }

  /** Counts a request until its response closes; a client that leaves early aborts its call. */
  track(reply: FastifyReply, controller: AbortLink | undefined): void {
    this.inFlight++;
    if (controller) this.controllers.add(controller);
    reply.raw.once('close', () => {
      this.inFlight--;
      if (controller) {
        this.controllers.delete(controller);
        if (!reply.raw.writableFinished) controller.abort(new RouterError('aborted', 'the client closed the connection'));
      }
      if (this.inFlight === 0) this.idle?.();
    });
  }

  run(): Promise<DrainReport> {
    this.running ??= this.drain();
    return this.running;
  }

  private async drain(): Promise<DrainReport> {
    this.state.draining = true;
    const inFlight = this.inFlight;
    const closed = this.app.close();
    let cutOff = 0;
    if (!(await this.quiet(this.drainMs))) {
      cutOff = this.controllers.size;
      for (const c of this.controllers) c.abort(new RouterError('aborted', `the gateway shut down: calls in flight had gateway.drainMs (${this.drainMs} ms) to finish`));
      // Aborted calls answer at once (503, or an error frame); a request still sending its body has no call to abort.
      await this.quiet(CUT_OFF_GRACE_MS);
      this.app.server.closeAllConnections();
    }
    this.app.server.closeIdleConnections();
    await closed;
    return { inFlight, cutOff };
  }

  /** True once nothing is in flight; false if `ms` pass first. */
  private quiet(ms: number): Promise<boolean> {
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.idle = undefined;
        resolve(this.inFlight === 0);
      }, ms);
      this.idle = () => {
        clearTimeout(timer);
        this.idle = undefined;
        resolve(true);
      };
    });
  }
}
