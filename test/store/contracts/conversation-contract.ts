import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ConversationStore } from '../../../src/store/conversation-store.js';
import { T0, type Close, type Make } from './kit.js';

/**
 * The conversations role: what `POST /v1/responses` keeps for `previous_response_id`, read back by
 * every process sharing the store, until its time to live ends.
 */
export function conversationContract<S extends ConversationStore>(name: string, makeStore: Make<S>, close: Close<S>) {
  const key = () => `tenant-a:resp_${randomUUID().replaceAll('-', '')}`;

  describe(`${name}: the conversations role`, () => {
    it('reads back a record it stored, and misses a key never stored', async () => {
      const store = await makeStore();
      const [k1, k2] = [key(), key()];
      await store.writeConversation(k1, '{"messages":[]}', 60_000, T0);
      expect(await store.readConversation(k1, T0 + 1)).toBe('{"messages":[]}');
      expect(await store.readConversation(k2, T0 + 1)).toBeUndefined();
      await close(store);
    });

    it('keeps the latest record written under a key', async () => {
      const store = await makeStore();
      const k = key();
      await store.writeConversation(k, '"first"', 60_000, T0);
      await store.writeConversation(k, '"second"', 60_000, T0 + 1);
      expect(await store.readConversation(k, T0 + 2)).toBe('"second"');
      await close(store);
    });
  });
}
