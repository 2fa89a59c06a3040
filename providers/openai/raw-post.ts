import type { OutgoingHttpHeaders } from 'node:http';
import { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { HttpFetch, PlainAnswer, PlainPostOptions } from '../shared/http-fetch.js';
import { errorEnvelope } from '../shared/presets/error-envelope.js';
import type { ProviderCallOptions } from '../types.js';
import type { RawEndpoint } from './raw-chat.js';

/** A pass-through endpoint ready for the transport's `post`: the URL parsed once, the headers lower-cased once. */
export interface PlainEndpoint {
  url: URL;
  headers: Readonly<Record<string, string>>;
}

/** `rawEndpoint` as `postRaw` sends it: the headers `fetch` would send (lower-cased, gzip, deflate and br accepted). */
export function plainEndpoint(endpoint: RawEndpoint): PlainEndpoint {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(endpoint.headers)) headers[k.toLowerCase()] = v;
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  return { url: new URL(endpoint.url), headers };
}

const ERRORS: Pick<PlainPostOptions, 'aborted' | 'timedOut'> = {
  aborted: () => new APIUserAbortError(),
  timedOut: () => new APIConnectionTimeoutError(),
};

/**
 * A non-streamed pass-through body on the `node:http` transport, answered whole: `sendRaw`'s
 * contract (a non-2xx status thrown as the SDK's `APIError` for it, a cancelled request as
 * `APIUserAbortError`, one past `timeoutMs` as `APIConnectionTimeoutError`, `onSend` right before
 * the bytes go) without a Web `Response` per request. `compatible`: a non-2xx JSON body gets
 * OpenAI's envelope first, as `withErrorEnvelope` gives the SDK's path.
 */
export async function postRaw(transport: HttpFetch, endpoint: PlainEndpoint, body: string, options: ProviderCallOptions, compatible: boolean): Promise<PlainAnswer> {
  // Object.assign, not `{ ...endpoint.headers, 'content-length': n }`: see src/observe/event-refs.ts.
  const headers: OutgoingHttpHeaders = Object.assign({}, endpoint.headers, { 'content-length': Buffer.byteLength(body) });
  // `abort` before `signal`: reading the router's makes no AbortSignal (see src/policy/abort/abort-link.ts).
  const answer = await transport.post(endpoint.url, headers, body, { signal: options.abort ?? options.signal, timeoutMs: options.timeoutMs, sending: options, ...ERRORS });
  if (answer.status >= 200 && answer.status < 300) return answer;
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    json = undefined;
  }
  if (compatible && json !== undefined && (answer.headers.get('content-type') ?? '').includes('json')) json = errorEnvelope(json) ?? json;
  throw APIError.generate(answer.status, json as object | undefined, json === undefined ? answer.text : undefined, answer.webHeaders());
}
