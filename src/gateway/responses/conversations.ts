import { RouterError } from '../../errors.js';
import { INTERNALS, type Router, type RouterInternals } from '../../router.js';
import type { ConversationStore } from '../../store/conversation-store.js';
import { MemoryConversations } from '../../store/memory-conversations.js';
import { roleOf } from '../../store/store-roles.js';
import { systemClock } from '../../time/system-clock.js';
import type { Clock, Message } from '../../types.js';
import { isResponseId, responseIdOfItem } from './ids.js';

/** What the gateway keeps of a stored response: the conversation up to and including its answer. */
export interface ConversationRecord {
  v: 1;
  /** The tenant whose key stored it: no other tenant can read it. */
  tenant: string;
  /** The history a `previous_response_id` continues: every input and answer so far (never `instructions`, which OpenAI does not carry over either). */
  messages: Message[];
  /** The response's output items, for `item_reference`. */
  output: Array<Record<string, unknown>>;
  /** The Response object as the client got it, for `GET /v1/responses/{id}`. */
  response: unknown;
}

/**
 * The conversations `previous_response_id` continues, per tenant, in the router's state store when
 * it plays the conversations role (Redis: every gateway on it continues any of them; memory: a
 * bounded LRU in this process), each kept `ttlMs` after its answer.
 */
export class Conversations {
  constructor(private readonly store: ConversationStore, private readonly clock: Clock, private readonly ttlMs: number) {}

  /** The record of `responseId` stored by `tenant`, or undefined (unknown, expired, or another tenant's). */
  async read(tenant: string, responseId: string): Promise<ConversationRecord | undefined> {
    if (!isResponseId(responseId)) return undefined;
    const raw = await this.store.readConversation(keyOf(tenant, responseId), this.clock.now());
    if (raw === undefined) return undefined;
    let record: ConversationRecord;
    try {
      record = JSON.parse(raw) as ConversationRecord;
    } catch {
      return undefined;
    }
    return record.v === 1 && record.tenant === tenant && Array.isArray(record.messages) ? record : undefined;
  }

  /** Stores a response's record for `ttlMs`. */
  async write(responseId: string, record: ConversationRecord): Promise<void> {
    await this.store.writeConversation(keyOf(record.tenant, responseId), JSON.stringify(record), this.ttlMs, this.clock.now());
  }

  /**
   * The history `previous_response_id` names, or the 400 OpenAI answers for an id it does not know
   * (`previous_response_not_found`); another tenant's id is unknown too.
   */
  async history(tenant: string, previousResponseId: string | undefined): Promise<Message[]> {
    if (previousResponseId === undefined) return [];
    const record = await this.read(tenant, previousResponseId);
    if (!record) {
      throw new RouterError('invalid_request', `Previous response with id '${previousResponseId}' not found.`, { code: 'previous_response_not_found', param: 'previous_response_id' });
    }
    return record.messages;
  }

  /** The stored items each referenced id names (ids of responses this tenant stored); unknown ids are left out. */
  async items(tenant: string, ids: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
    const found = new Map<string, Record<string, unknown>>();
    const responses = [...new Set(ids.map(responseIdOfItem).filter((id): id is string => id !== undefined))];
    const records = await Promise.all(responses.map((id) => this.read(tenant, id)));
    for (const record of records) for (const item of record?.output ?? []) if (typeof item.id === 'string' && ids.includes(item.id)) found.set(item.id, item);
    return found;
  }
}

// Tenant first, then the id (whose shape has no colon), so no two tenants' keys can meet.
const keyOf = (tenant: string, responseId: string) => `${encodeURIComponent(tenant)}:${responseId}`;

/**
 * The conversations of a gateway in front of `router`: in its state store when the store plays the
 * conversations role, else in a bounded LRU of this gateway's own.
 */
export function conversationsOf(router: Router, override?: ConversationStore): Conversations {
  const internals = (router as Router & { [INTERNALS]?: RouterInternals })[INTERNALS];
  const { ttlMs, maxEntries } = router.config.gateway.responses;
  const store = override ?? (internals && roleOf(internals.store, 'conversations')) ?? new MemoryConversations(maxEntries);
  const clock: Clock = internals?.runtime.clock ?? systemClock;
  return new Conversations(store, clock, ttlMs);
}
