import type { ErrorKind } from '../errors.js';
import type { OutlierReason } from '../decide/outlier-verdict.js';
import type { Attempt, RateLimitSnapshot, Usage } from '../types.js';

/**
 * Which call an event belongs to: every event of a call carries it (`attempt`, `retry`, `fallback`,
 * `quota`, `ratelimit`, `outlier`, `call`); `breaker` when a call's outcome changed it; `store` never.
 */
export interface CallRef {
  /** Unique per call (within the router's process), the same on every event of that call. */
  callId: string;
  /** The call's tenant (`default` when it named none). */
  tenant: string;
  chain: string;
  /** What the call is: `chat`, `stream` or `embed`. */
  operation: 'chat' | 'stream' | 'embed';
}

/** Which target of which call an event is about. */
export interface TargetRef extends CallRef {
  provider: string;
  model: string;
}

/** How a call ended, as the `call` event reports it. */
export interface CallEvent extends CallRef {
  /** `ok`: a result; `error`: a thrown RouterError; `interrupted`: a stream cut after its first visible event. */
  outcome: 'ok' | 'error' | 'interrupted';
  /** The error's kind, when it did not end `ok`. */
  kind?: ErrorKind;
  /** The target that answered (or, for a stream cut short, that streamed). */
  provider?: string;
  model?: string;
  /** The model the provider says answered, when it named one (a dated snapshot of `model`, say). */
  responseModel?: string;
  usage?: Usage | { inputTokens: number };
  /** Epoch ms (router clock) the call began. */
  startedAtMs: number;
  latencyMs: number;
  /** Streams: from the call's start to its first visible event. */
  timeToFirstTokenMs?: number;
  attempts: Attempt[];
  /** True when the result was shared or replayed under an idempotency key. */
  replayed?: boolean;
  /** True when the result came from the response cache. */
  cached?: boolean;
  /** USD the call's answered attempts cost at their targets' prices (docs/spend.md); absent when none was priced. */
  costUsd?: number;
  /** True when a hedge was sent for the call (see the `hedge` event). */
  hedged?: boolean;
  /**
   * When the target that answered is a pool member: the pool (`chain[step]`) and the member
   * (`provider:model`, as the pool's `weights` name it).
   */
  pool?: { id: string; member: string };
}

/** A spend budget's news: an alert threshold crossed (once per window, fleet-wide), or a budget held per process while the shared store is down. */
export interface SpendEvent extends CallRef {
  /** `tenant:<name>` or `key:<id>`. */
  budget: string;
  reason: 'threshold' | 'local';
  /** `threshold`: the window (`day:2026-12-02`, `month:2026-12`), the fraction crossed, the spend after it and the limit. */
  window?: string;
  threshold?: number;
  spentUsd?: number;
  limitUsd?: number;
  /** `local`: the share of what the fleet had left that this process now spends alone. */
  localShare?: number;
}

/**
 * One shadow copy of a call (docs/routing.md, "Shadow traffic"): the call's own fields (`callId`,
 * `tenant`, `chain` and `operation` are the real call's), the target that answered the caller, the
 * shadow target, and how the shadow answered and scored. Carries no prompt and no answer text.
 */
export interface ShadowEvent extends CallRef {
  /** The target that answered the caller, its latency and cost. */
  real: { provider: string; model: string; latencyMs: number; costUsd?: number };
  /** The shadow target. */
  provider: string;
  model: string;
  /** `ok`: the shadow answered; `error`: it failed; `dropped`: it was not sent (see `dropped`). */
  outcome: 'ok' | 'error' | 'dropped';
  /** `load`: the chain's `maxInFlight` shadows were running; `budget`: the shadow target's budget was full; `closed`: the router closed first. */
  dropped?: 'load' | 'budget' | 'closed';
  /** The shadow's latency, from its own start (after the caller's answer) to its answer or error. */
  latencyMs?: number;
  /** USD the shadow's answer cost at its target's price; never added to the caller's cost. */
  costUsd?: number;
  /** The shadow's error, when it failed: its kind and redacted message. */
  kind?: ErrorKind;
  error?: string;
  /** Normalised text equality with the real answer, and the token Jaccard share (0..1). */
  agreement?: { equal: boolean; similarity: number };
  /** The chain's `shadow.expect` checked against the shadow answer: `pass` when every expectation holds. */
  expect?: { pass: boolean; failed: { name: string; reason?: string }[] };
  /** The judge's verdict on the shadow answer (`pass`: score at least `minScore`, when set), and its own cost. */
  judge?: { score: number; reason: string; pass?: boolean; costUsd?: number };
  /** A grader that failed (judge unreachable, malformed verdict, no grader given): never the shadow target's failure. */
  graderError?: string;
}

/** Everything `router.on` can listen to, with its payload. */
export interface RouterEvents {
  /**
   * One target tried (a request sent) or skipped (no request sent). `usage` when a chat or embed
   * attempt answered; a stream's answering attempt is reported at its first token, before the usage
   * is known: the stream's usage is on its `call` event (and its `done` result).
   */
  attempt: TargetRef & {
    attempt: number; ok: boolean; kind?: ErrorKind; status?: number; code?: string;
    skipped?: boolean; latencyMs: number; requestId?: string;
    /** Epoch ms (router clock) the request was sent, or the target skipped. */
    startedAtMs: number;
    usage?: Usage | { inputTokens: number; outputTokens?: number };
    /** The model the provider says answered (a dated snapshot of the one asked for, say). */
    responseModel?: string;
    /** USD this attempt cost, from its usage at its target's price (absent when either is unknown). */
    costUsd?: number;
    /**
     * A server failure with attempts left that the target's retry budget (`retry.budgetPercent`) has
     * no room to retry: the call moves on to the next target (or fails as `exhausted`).
     */
    retryBudgetSpent?: true;
  };
  /** The same target will be tried again after `delayMs`. */
  retry: TargetRef & { attempt: number; kind: ErrorKind; delayMs: number; hintMs?: number };
  /** The call moves on from this target; `to` is undefined when it was the last one. */
  fallback: TargetRef & { kind: ErrorKind; to?: { provider: string; model: string }; coolingMs?: number };
  /**
   * A circuit breaker changed state. `key` is the provider (or `provider:model` with scope `target`).
   * When a call's outcome changed it (opened or closed it), the call's `callId`, `tenant`, `chain` and
   * `operation`; none when time alone did (half-open), or the fleet's state did (`breaker.shared`).
   * `openedBy`, when this process's own verdicts opened it: the counted failures per tenant within
   * the breaker's window (since it last closed). One tenant's failures opening a breaker that the
   * others' calls pass through is a smell: that client's requests, not the provider, may be at fault.
   */
  breaker: { key: string; state: 'open' | 'halfOpen' | 'closed'; openedBy?: Record<string, number> } & Partial<CallRef>;
  /** A quota or billing error parked a provider. */
  quota: TargetRef & { code?: string; status?: number; parkedForMs: number; requestId?: string };
  /** The rate-limit headroom a provider reported on a response. */
  ratelimit: TargetRef & RateLimitSnapshot;
  /**
   * A hedge was sent: the call's first step (`provider`, `model`) had not answered after `afterMs`,
   * so the chain's next step (`to`) is tried too; the first answer wins, the other is aborted.
   */
  hedge: TargetRef & { afterMs: number; to: { provider: string; model: string } };
  /**
   * A pool member was ejected as an outlier (`action: 'eject'`), or returned to service when the
   * request after its ejection time answered (`'return'`): the call whose attempt decided it, the
   * pool (`chain[step]`), why (`reason`), for how long (`ejectedForMs`), the member's ejections
   * counted towards the next one's length, and how many of the pool's members are out now.
   */
  outlier: TargetRef & {
    pool: string;
    action: 'eject' | 'return';
    reason?: OutlierReason;
    ejectedForMs?: number;
    ejections: number;
    ejectedMembers: number;
  };
  /** A call ended: once per call, whatever the outcome. */
  call: CallEvent;
  /** A shadow copy of a successful call was sent and scored, or dropped (docs/routing.md, "Shadow traffic"). */
  shadow: ShadowEvent;
  /** A spend budget crossed an `alertAt` threshold, or runs on this process's share while the shared store is down. */
  spend: SpendEvent;
  /**
   * The shared (Redis) store stopped answering, or answers again: once per change. While it is
   * unavailable calls run on process-local state (`store.onUnavailable: 'local'`) or fail (`'fail'`).
   * About the store, not a call: it carries no call's fields.
   */
  store: { state: 'unavailable' | 'available'; error?: string };
}

export type RouterEventName = keyof RouterEvents;
export type Listener<E extends RouterEventName> = (event: RouterEvents[E]) => void;

/** A small typed event hub; a throwing listener is reported, never allowed to break a call. */
export class EventHub {
  private readonly listeners = new Map<RouterEventName, Set<Listener<RouterEventName>>>();

  constructor(private readonly onListenerError: (event: RouterEventName, err: unknown) => void) {}

  on<E extends RouterEventName>(event: E, fn: Listener<E>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(fn as Listener<RouterEventName>);
    return () => {
      set!.delete(fn as Listener<RouterEventName>);
    };
  }

  /** True when someone listens, so callers can skip building a payload nobody reads. */
  has(event: RouterEventName): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
  }

  emit<E extends RouterEventName>(event: E, payload: RouterEvents[E]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const fn of set) {
      try {
        fn(payload);
      } catch (err) {
        this.onListenerError(event, err);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
