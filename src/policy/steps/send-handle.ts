import type { AbortSignalLike } from '../../../providers/types.js';
import type { AttemptScope } from '../abort/attempt-scope.js';
import type { AttemptHandle } from './call-kind.js';

/** What of an attempt its handle marks: whether the request left the process. */
interface Sendable {
  sent: boolean;
}

/**
 * One attempt's handle, as the call kind's `send` and the adapter (its `ProviderCallOptions`) get it:
 * one object per attempt whose `onSend` is a method, not a closure made for every request. An adapter
 * calls it on the options it was given (`options.onSend()`), as every adapter here does.
 */
export class SendHandle implements AttemptHandle {
  constructor(
    private readonly attempt: Sendable,
    readonly timeoutMs: number | undefined,
    readonly scope: AttemptScope | undefined,
  ) {}

  /** The scope's `AbortSignal`, made when an adapter first reads it (`ProviderCallOptions.signal`). */
  get signal(): AbortSignal | undefined {
    return this.scope?.signal;
  }

  /** The same abort without making a signal (`ProviderCallOptions.abort`). */
  get abort(): AbortSignalLike | undefined {
    return this.scope?.abort;
  }

  /** The request's bytes are leaving now (`ProviderCallOptions.onSend`). */
  onSend(this: SendHandle | undefined): void {
    // Detached (`const f = options.onSend; f()`) it cannot tell whose request went: say so, loudly.
    if (!(this instanceof SendHandle)) throw new TypeError('ProviderCallOptions.onSend must be called on the options it came with: options.onSend()');
    this.attempt.sent = true;
  }
}
