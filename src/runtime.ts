import type { ProviderAdapter } from '../providers/types.js';
import type { Clock } from './clock.js';
import type { ResolvedConfig } from './config/index.js';
import type { EventHub } from './observe/events.js';
import type { Logger } from './observe/logger.js';
import type { Admission } from './policy/admission.js';
import type { Breakers } from './policy/breakers.js';
import type { StateStore } from './store/state-store.js';
import type { Attempt, ChatRequest } from './types.js';

/** What the policies share for the life of a router. */
export interface Runtime {
  config: ResolvedConfig;
  adapters: ReadonlyMap<string, ProviderAdapter>;
  breakers: Breakers;
  admission: Admission;
  store: StateStore;
  clock: Clock;
  events: EventHub;
  logger: Logger;
  random: () => number;
}

/** One call to `chat` (or `stream`), from validation to result. */
export interface Call {
  chain: string;
  request: ChatRequest;
  startedAtMs: number;
  /** Epoch ms after which the call must end (the caller's `timeoutMs`). */
  deadlineAtMs?: number;
  /** Every target tried or skipped, in order; returned on the result or the error. */
  attempts: Attempt[];
  /** A stream holds its attempt (and its concurrency slot) until the last chunk. */
  streaming?: boolean;
}
