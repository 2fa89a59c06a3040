import type { OutgoingHttpHeaders } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import type { HttpFetch, PlainAnswer, PlainPostOptions, SdkFetch } from '../shared/http-fetch.js';
import type { HeaderBag } from '../shared/headers.js';
import type { ProviderCallOptions, ProviderSettings } from '../types.js';

/**
 * The API version the adapter's SDK (@anthropic-ai/sdk 1.14, client.js `buildHeaders`) sends on every
 * request: a pass-through body goes under the same one, so both paths speak the same API.
 */
export const ANTHROPIC_VERSION = '2026-10-21';

/** A Messages answer read whole off the wire: its body, a header lookup, and the status. */
export interface MessagesAnswer {
  text: string;
  headers: HeaderBag;
}

const ERRORS: Pick<PlainPostOptions, 'aborted' | 'timedOut'> = {
  aborted: () => new Anthropic.APIUserAbortError(),
  timedOut: () => new Anthropic.APIConnectionTimeoutError(),
};

/** A non-2xx answer as the SDK throws it (`APIError.generate`), so the one error mapping reads it. */
function apiError(status: number, text: string, headers: Headers): Error {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return Anthropic.APIError.generate(status, json as object | undefined, json === undefined ? text : undefined, headers);
}

/**
 * Where a pass-through Messages body goes and how: `POST {baseURL}/v1/messages` with the headers the
 * SDK client sends (`x-api-key`, `anthropic-version`, the provider's own `headers`) and the call's
 * `anthropic-beta` when the client sent one. A plain answer goes on the adapter's `node:http`
 * transport when it has one (no Web `Response`), a stream on `fetch` (which hands it over as it
 * arrives). Both throw what the SDK throws: a non-2xx status as its `APIError`, a cancelled request
 * as `APIUserAbortError`, one past `timeoutMs` as `APIConnectionTimeoutError`; `onSend` runs right
 * before the bytes go. Built once per adapter.
 */
export class MessagesWire {
  private readonly url: string;
  private readonly parsed: URL;
  private readonly headers: Readonly<Record<string, string>>;

  constructor(provider: ProviderSettings, private readonly fetch: SdkFetch, private readonly transport: HttpFetch | undefined) {
    this.url = `${(provider.baseURL ?? 'https://api.anthropic.com').replace(/\/+$/, '')}/v1/messages`;
    this.parsed = new URL(this.url);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(provider.headers ?? {})) headers[k.toLowerCase()] = v;
    Object.assign(headers, { 'content-type': 'application/json', accept: 'application/json', 'anthropic-version': ANTHROPIC_VERSION });
    if (provider.resolvedApiKey) headers['x-api-key'] = provider.resolvedApiKey;
    this.headers = headers;
  }

  /** A plain body, its answer read whole. */
  async answer(body: string, beta: string | undefined, options: ProviderCallOptions): Promise<MessagesAnswer> {
    if (!this.transport) {
      const response = await this.send(body, beta, options, false);
      return { text: await response.text(), headers: response.headers };
    }
    // Object.assign, not a spread: see src/observe/event-refs.ts.
    const headers: OutgoingHttpHeaders = Object.assign({}, this.headers, { 'content-length': Buffer.byteLength(body), 'accept-encoding': 'gzip, deflate, br' });
    if (beta !== undefined) headers['anthropic-beta'] = beta;
    const answer: PlainAnswer = await this.transport.post(this.parsed, headers, body, { signal: options.abort ?? options.signal, timeoutMs: options.timeoutMs, sending: options, ...ERRORS });
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw apiError(answer.status, answer.text, answer.webHeaders());
  }

  /** A streamed body, handed over once the answer's headers are in. */
  events(body: string, beta: string | undefined, options: ProviderCallOptions): Promise<Response> {
    return this.send(body, beta, options, true);
  }

  private async send(body: string, beta: string | undefined, options: ProviderCallOptions, stream: boolean): Promise<Response> {
    const outer = options.signal;
    if (outer?.aborted) throw new Anthropic.APIUserAbortError();
    // The timeout bounds connect and headers, as the SDK's does; the caller's signal the whole body too.
    const timeout = options.timeoutMs === undefined ? undefined : new AbortController();
    const timer = timeout && setTimeout(() => timeout.abort(), Math.max(1, Math.ceil(options.timeoutMs!)));
    const signal = timeout ? (outer ? AbortSignal.any([outer, timeout.signal]) : timeout.signal) : outer;
    const headers: Record<string, string> = Object.assign({}, this.headers);
    if (stream) headers.accept = 'text/event-stream';
    if (beta !== undefined) headers['anthropic-beta'] = beta;
    const init: RequestInit = { method: 'POST', headers, body };
    if (signal) init.signal = signal;
    let response: Response;
    try {
      options.onSend?.(); // the bytes are ours and ready: they go now
      response = await this.fetch(this.url, init);
    } catch (err) {
      if (outer?.aborted) throw new Anthropic.APIUserAbortError();
      if (timeout?.signal.aborted) throw new Anthropic.APIConnectionTimeoutError();
      throw err;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
    if (!response.ok) throw apiError(response.status, await response.text().catch(() => ''), response.headers);
    return response;
  }
}
