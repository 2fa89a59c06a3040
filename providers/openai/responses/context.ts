import type OpenAI from 'openai';
import type { RouterError } from '../../../src/errors.js';
import type { RateLimitSnapshot } from '../../../src/types.js';
import type { HeaderBag } from '../../shared/headers.js';
import type { Wire } from '../wire.js';

/** What the Responses calls share with the rest of the OpenAI adapter: its client, error mapping and header reading. */
export interface ResponsesContext {
  client: OpenAI;
  where(model: string): { provider: string; model: string };
  map(model: string): (err: unknown) => RouterError;
  rateLimits(headers: HeaderBag): RateLimitSnapshot | undefined;
  /** Pass-through: the wire to `/responses`, present when the provider takes Responses bodies as the client sent them. */
  wire?: Wire;
}
