import type { RouterEvents } from '../../observe/events.js';

export type AttemptEvent = RouterEvents['attempt'];

/**
 * Attempts held until their call's `call` event, when the call's spans are built. Bounded: a call
 * that never closes (one already running when `instrument` was called: it emits no `call` event)
 * is forgotten once `max` later calls are waiting, oldest first.
 */
export class PendingAttempts {
  private readonly byCall = new Map<string, AttemptEvent[]>();

  constructor(private readonly max = 10_000) {}

  add(event: AttemptEvent): void {
    const list = this.byCall.get(event.callId);
    if (list) {
      list.push(event);
      return;
    }
    if (this.byCall.size >= this.max) this.byCall.delete(this.byCall.keys().next().value!);
    this.byCall.set(event.callId, [event]);
  }

  /** The call's attempts in order, forgotten here. */
  take(callId: string): AttemptEvent[] {
    const list = this.byCall.get(callId) ?? [];
    this.byCall.delete(callId);
    return list;
  }


  clear(): void {
    this.byCall.clear();
  }
}
