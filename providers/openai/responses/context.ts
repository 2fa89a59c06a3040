import type OpenAI from 'openai';
import type { RouterError } from '../../../src/errors.js';
import type { RateLimitSnapshot } from '../../../src/types.js';
import type { HeaderBag } from '../../shared/headers.js';
import type { HttpFetch, SdkFetch } from '../../shared/http-fetch.js';
import type { RawEndpoint } from '../raw-chat.js';
import type { PlainEndpoint } from '../raw-post.js';

/** Where a pass-through Responses body goes: `/responses` on `fetch`, and (on the adapter's own transport) without fetch's Web objects. */
export interface ResponsesRaw {
  fetch: SdkFetch;
  endpoint: RawEndpoint;
  plain?: { transport: HttpFetch; endpoint: PlainEndpoint };
}

/** What the Responses calls share with the rest of the OpenAI adapter: its client, error mapping and header reading. */
export interface ResponsesContext {
  client: OpenAI;
  where(model: string): { provider: string; model: string };
  map(model: string): (err: unknown) => RouterError;
  rateLimits(headers: HeaderBag): RateLimitSnapshot | undefined;
  /** Pass-through: present when the provider takes Responses bodies as the client sent them. */
  raw?: ResponsesRaw;
}
