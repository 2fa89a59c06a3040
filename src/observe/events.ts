import type { ErrorKind } from '../errors.js';
import type { RateLimitSnapshot } from '../types.js';

interface TargetRef {
  chain: string;
  provider: string;
  model: string;
}

/** Everything `router.on` can listen to, with its payload. */
export interface RouterEvents {
  /** One target tried (a request sent) or skipped (no request sent). */
  attempt: TargetRef & {
    attempt: number; ok: boolean; kind?: ErrorKind; status?: number; code?: string;
    skipped?: boolean; latencyMs: number; requestId?: string;
  };
  /** The same target will be tried again after `delayMs`. */
  retry: TargetRef & { attempt: number; kind: ErrorKind; delayMs: number; hintMs?: number };
  /** The call moves on from this target; `to` is undefined when it was the last one. */
  fallback: TargetRef & { kind: ErrorKind; to?: { provider: string; model: string }; coolingMs?: number };
  /** A circuit breaker changed state. `key` is the provider (or `provider:model` with scope `target`). */
  breaker: { key: string; state: 'open' | 'halfOpen' | 'closed' };
  /** A quota or billing error parked a provider. */
  quota: TargetRef & { code?: string; status?: number; parkedForMs: number; requestId?: string };
  /** The rate-limit headroom a provider reported on a response. */
  ratelimit: TargetRef & RateLimitSnapshot;
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
