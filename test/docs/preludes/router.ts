import { createRouter, type Message } from '../../../src/index.js';
import { simulated } from './base.js';

/** A router on the simulator (chains `default` and `embeddings`), and a conversation to send it. */
export async function setup() {
  const { sim, config } = await simulated();
  const router = createRouter(config);
  const messages: Message[] = [{ role: 'user', content: 'Hello' }];
  return {
    router,
    messages,
    async close() {
      await router.close();
      await sim.stop();
    },
  };
}
