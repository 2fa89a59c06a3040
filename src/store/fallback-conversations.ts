import { RouterError } from '../errors.js';
import type { MaybePromise } from './maybe-promise.js';
import type { ConversationStore } from './conversation-store.js';
import type { FallbackCore } from './fallback-core.js';

/**
 * The conversations role behind the store's breaker: a record written while the store is down is
 * kept in this process (and written to the store once it is back, so other processes continue it
 * too); a read looks here first, then in the store while it answers. A read the store cannot
 * answer fails as `transport` (`store_unavailable`, or the store's own error with `onUnavailable:
 * 'fail'`): the record may be there, and a miss would end a conversation that is only out of reach.
 */
export class FallbackConversations implements ConversationStore {
  constructor(private readonly core: FallbackCore, private readonly primary: ConversationStore) {}

  readConversation(key: string, nowMs: number): MaybePromise<string | undefined> {
    const { core } = this;
    const local = core.local.readConversation(key, nowMs);
    if (local !== undefined) return local;
    // Not a miss: the record may well be in the store, and "not found" would end the conversation.
    return core.decide(() => this.primary.readConversation(key, nowMs), () => {
      throw new RouterError('transport', 'the state store is unavailable: the conversations kept there can be continued once it is back', { code: 'store_unavailable' });
    });
  }

  writeConversation(key: string, value: string, ttlMs: number, nowMs: number): MaybePromise<void> {
    const { core } = this;
    const keep = () => {
      core.local.writeConversation(key, value, ttlMs, nowMs);
      core.outbox.add({ kind: 'conversation', key, value, ttlMs, atMs: nowMs });
    };
    if (!core.up) return keep();
    return core.health.bounded(() => this.primary.writeConversation(key, value, ttlMs, nowMs)).then(undefined, (err: unknown) => {
      core.failed(err);
      keep();
    });
  }
}
