import type { HeaderBag } from '../shared/headers.js';
import type { HttpFetch, SdkFetch } from '../shared/http-fetch.js';
import type { ProviderCallOptions } from '../types.js';
import { sendRaw, type RawEndpoint } from './raw-chat.js';
import { plainEndpoint, postRaw, type PlainEndpoint } from './raw-post.js';

/** An answer read whole off the wire: its body as text, a header lookup, and the headers as a Web `Headers` (built on demand). */
export interface WireAnswer {
  text: string;
  headers: HeaderBag;
  webHeaders(): Headers;
}

/**
 * How bytes the adapter already holds (a pass-through body) reach one endpoint: chosen once, when
 * the adapter is built, so a request path never asks which transport it is on. The shape of
 * vercel/ai's `postJsonToApi` with one response handler per kind: `answer` reads a JSON answer
 * whole, `events` hands an event stream over once its headers are in. Both throw a non-2xx status
 * as the SDK's own `APIError` for it, a cancelled request as `APIUserAbortError` and one past
 * `timeoutMs` as `APIConnectionTimeoutError` (so the one error mapping reads them), and call
 * `onSend` right before the bytes go.
 */
export interface Wire {
  answer(body: string, options: ProviderCallOptions): Promise<WireAnswer>;
  events(body: string, options: ProviderCallOptions): Promise<Response>;
}

/**
 * The wire to `endpoint`: on the adapter's own `node:http` transport a whole answer skips fetch's
 * Web objects (`postRaw`); on the SDK's `fetch` it is read from the `Response`. Event streams go on
 * `fetch` either way (the transport's `fetch` hands them over as they arrive). `compatible`: a
 * non-2xx JSON body gets OpenAI's envelope first (the `fetch` given is already wrapped so).
 */
export function endpointWire(endpoint: RawEndpoint, fetch: SdkFetch, transport: HttpFetch | undefined, compatible: boolean): Wire {
  return transport ? new PlainWire(transport, plainEndpoint(endpoint), fetch, endpoint, compatible) : new FetchWire(fetch, endpoint);
}

/** A `fetch` answer read whole: its headers are a Web `Headers` already. */
class FetchAnswer implements WireAnswer {
  constructor(readonly text: string, readonly headers: Headers) {}
  webHeaders(): Headers {
    return this.headers;
  }
}

class FetchWire implements Wire {
  constructor(private readonly fetch: SdkFetch, private readonly endpoint: RawEndpoint) {}

  async answer(body: string, options: ProviderCallOptions): Promise<WireAnswer> {
    const response = await sendRaw(this.fetch, this.endpoint, body, options, false);
    return new FetchAnswer(await response.text(), response.headers);
  }

  events(body: string, options: ProviderCallOptions): Promise<Response> {
    return sendRaw(this.fetch, this.endpoint, body, options, true);
  }
}

class PlainWire implements Wire {
  constructor(
    private readonly transport: HttpFetch, private readonly plain: PlainEndpoint,
    private readonly fetch: SdkFetch, private readonly endpoint: RawEndpoint, private readonly compatible: boolean,
  ) {}

  answer(body: string, options: ProviderCallOptions): Promise<WireAnswer> {
    return postRaw(this.transport, this.plain, body, options, this.compatible);
  }

  events(body: string, options: ProviderCallOptions): Promise<Response> {
    return sendRaw(this.fetch, this.endpoint, body, options, true);
  }
}
