import { shadowChainName, type ShadowPolicy, type Target } from '../config/index.js';
import { shadowVerdict } from '../decide/shadow-sample.js';
import { RouterError } from '../errors.js';
import type { ShadowEvent } from '../observe/events.js';
import { needsOf } from '../policy/state/capabilities.js';
import type { Call } from '../policy/state/call.js';
import { chatCall } from '../calls/chat.js';
import type { ChatRequest, ChatResult, Timer } from '../types.js';
import type { NewCall } from './new-call.js';
import type { Runtime } from './runtime.js';
import type { ShadowGrader } from './shadow-grader.js';
import { budgetFull, scoreShadow, shadowEventBase, shadowRequest } from './shadow-run.js';

/** One shadow copy waiting for its start, or running. */
interface Shadow {
  chain: string;
  timer?: Timer;
  abort: AbortController;
  emit: (event: ShadowEvent) => void;
  event: ShadowEvent;
}

/**
 * The router's shadow traffic (docs/routing.md, "Shadow traffic"). A successful call of a shadowed
 * chain is offered here with its result; one draw of the router's `random` decides whether it is
 * copied, and each shadow target then gets its copy on a timer set to 0 ms: after the caller has its
 * answer, as a call of its own (tenant `shadow`, no deadline, the target's own chain: retries and
 * breakers, no fall-through, never a queue for budget). A chain's shadows beyond `maxInFlight` are
 * dropped. `close()` drops those not started and aborts those running, then waits for their events.
 */
export class ShadowBook {
  /** The shadow grader (expectations, judge), handed in once the router exists. */
  grader?: ShadowGrader;
  private readonly inFlight = new Map<string, number>();
  private readonly shadows = new Set<Shadow>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly rt: Runtime, private readonly calls: NewCall) {}

  /** Whether a chain has shadow traffic (its policy), so a call of any other chain costs nothing here. */
  policyOf(chain: string): ShadowPolicy | undefined {
    return Object.hasOwn(this.rt.config.shadows, chain) ? this.rt.config.shadows[chain] : undefined;
  }

  /** After a call of a shadowed chain answered its caller: copies it, or not, to each shadow target. */
  offer(policy: ShadowPolicy, call: Call<ChatRequest>, result: ChatResult): void {
    if (this.closed) return;
    const draw = this.rt.random();
    for (const target of policy.targets) {
      const verdict = shadowVerdict(draw, policy.percent, this.inFlight.get(call.chain) ?? 0, policy.maxInFlight);
      if (verdict === 'unsampled') return;
      const event = shadowEventBase(call, result, target, 'dropped');
      if (verdict === 'load') {
        event.dropped = 'load';
        this.emit(event);
        continue;
      }
      this.inFlight.set(call.chain, (this.inFlight.get(call.chain) ?? 0) + 1);
      const shadow: Shadow = { chain: call.chain, abort: new AbortController(), emit: (e) => this.emit(e), event };
      this.shadows.add(shadow);
      shadow.timer = this.rt.clock.setTimer(0, () => {
        shadow.timer = undefined;
        const run = this.run(shadow, policy, target, call, result).finally(() => this.running.delete(run));
        this.running.add(run);
      });
    }
  }

  private async run(shadow: Shadow, policy: ShadowPolicy, target: Target, call: Call<ChatRequest>, real: ChatResult): Promise<void> {
    const { rt } = this;
    const chain = shadowChainName(target);
    const request = shadowRequest(call.request, chain);
    const startedAtMs = rt.clock.now();
    const copy = this.calls.make('chat', chain, rt.chains.get(chain)!, request, needsOf(request), shadow.abort.signal, startedAtMs);
    const event = shadow.event;
    try {
      const answer = await chatCall(rt, copy);
      event.outcome = 'ok';
      event.latencyMs = answer.latencyMs;
      if (answer.costUsd !== undefined) event.costUsd = answer.costUsd;
      await scoreShadow(event, policy, call.request, real, answer, this.grader, shadow.abort.signal);
      if (event.graderError !== undefined) event.graderError = rt.redact(event.graderError);
    } catch (err) {
      event.latencyMs = rt.clock.now() - startedAtMs;
      if (shadow.abort.signal.aborted) event.dropped = 'closed';
      else if (budgetFull(copy)) event.dropped = 'budget';
      else {
        event.outcome = 'error';
        // The single target's own failure (`server`, `timeout`...), not the chain's `exhausted` around it.
        const kind = copy.attempts.at(-1)?.kind ?? (err instanceof RouterError ? err.kind : undefined);
        if (kind !== undefined) event.kind = kind;
        event.error = rt.redact(err instanceof Error ? err.message : String(err));
      }
    } finally {
      this.finish(shadow);
    }
  }

  private finish(shadow: Shadow): void {
    if (!this.shadows.delete(shadow)) return;
    this.inFlight.set(shadow.chain, this.inFlight.get(shadow.chain)! - 1);
    this.emit(shadow.event);
  }

  private emit(event: ShadowEvent): void {
    if (this.rt.events.has('shadow')) this.rt.events.emit('shadow', event);
  }

  /** Drops the shadows not started, aborts the running ones, and resolves once every shadow's event is out. */
  async close(): Promise<void> {
    this.closed = true;
    for (const shadow of this.shadows) {
      shadow.abort.abort(new RouterError('aborted', 'router closed'));
      if (shadow.timer) {
        shadow.timer.clear();
        shadow.event.dropped = 'closed';
        this.finish(shadow);
      }
    }
    await Promise.all(this.running);
  }
}
