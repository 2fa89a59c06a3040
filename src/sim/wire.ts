import type { IncomingHttpHeaders } from 'node:http';
import type { LimitSnapshot } from './rate-limiter.js';
import type { SimEmbedRequest } from './embeddings.js';
import type { SimAnswer, SimError, SimRequest } from './sim-request.js';

/** Per-response facts a wire writes into headers and bodies. */
export interface WireContext {
  requestId: string;
  /** The account id the provider names (`openai-organization`, `anthropic-organization-id`, error messages). */
  org: string;
  nowMs: number;
  /** Time from the request's arrival to its answer (`openai-processing-ms`). */
  processingMs?: number;
  /** OpenAI only: whether a 429 carries `retry-after`. */
  retryAfter: boolean;
}

/** Ids of one answer. */
export interface AnswerIds {
  /** `chatcmpl-...` or `msg_...`. */
  id: string;
  createdS: number;
  fingerprint: string;
}

/** One counted chunk of a stream: its SSE frames, and the output tokens it carries (for pacing). */
export interface StreamChunk {
  data: string;
  tokens: number;
}

/** A streamed answer as SSE frames (each already ends in its blank line). */
export interface StreamFrames {
  /** Frames before the first content chunk (role chunk, or `message_start`, thinking, `content_block_start`, `ping`). */
  head: string[];
  /** One entry per counted chunk (`answerChunks`): a text delta, a tool-call start, an argument fragment. */
  chunks: StreamChunk[];
  /** Frames after the last chunk, through the terminal one (`[DONE]`, `message_stop`). */
  tail: string[];
  /** The mid-stream error frame this API sends after a 200. */
  error: string;
  /** How the frames are written: `latin1` for a binary framing carried in strings (Bedrock's event stream). @default 'utf8' */
  encoding?: 'utf8' | 'latin1';
  /** @default 'text/event-stream; charset=utf-8' */
  contentType?: string;
}

/** A rendered error: status, headers beyond the common ones, and body. */
export interface WireError {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** What an API puts in the request path rather than the body (Bedrock's model id and operation). */
export interface PathRoute {
  model: string;
  stream: boolean;
}

/** An API's own embeddings format, where it is not OpenAI's. */
export interface WireEmbeddings {
  parse(raw: string, route: PathRoute | undefined): SimEmbedRequest | SimError;
  body(request: SimEmbedRequest): unknown;
  /** The headers of a successful answer that charged `tokens` input tokens. */
  headers(ctx: WireContext, tokens: number): Record<string, string>;
}

/** One provider API's wire format: request parsing, headers, bodies and stream frames. */
export interface Wire {
  readonly type: 'openai' | 'anthropic' | 'gemini' | 'bedrock';
  /** The header that carries the request id. */
  readonly requestIdHeader: string;
  /** The API key a request carries, or undefined. */
  keyOf(headers: IncomingHttpHeaders): string | undefined;
  /** The raw body in the common shape, or the 400 the API gives for it (Gemini and Bedrock name the model and streaming in the URL: `route`). */
  parse(raw: string, headers: IncomingHttpHeaders, route?: PathRoute): SimRequest | SimError;
  /** Whether this API's model writes a sentence before its tool calls for this request (Claude under `auto`). */
  textBeforeToolCalls(request: SimRequest): boolean;
  /** Headers every response carries: request id, account, rate-limit windows. */
  headers(ctx: WireContext, snapshot: LimitSnapshot | undefined): Record<string, string>;
  error(err: SimError, ctx: WireContext): WireError;
  completion(request: SimRequest, answer: SimAnswer, ids: AnswerIds): unknown;
  stream(request: SimRequest, answer: SimAnswer, ids: AnswerIds): StreamFrames;
  /** A new request id and answer id (`chatcmpl-...`, `msg_...`), drawn from the provider's id stream. */
  ids(random: () => number): { requestId: string; answerId: string };
  /** Embeddings in the API's own format; absent: OpenAI's `/v1/embeddings`. */
  embeddings?: WireEmbeddings;
}

/** `retry-after` in whole seconds, rounded up (never 0 on a 429: it would invite an instant retry). */
export function retryAfterSeconds(waitMs: number): string {
  return String(Math.max(1, Math.ceil(waitMs / 1000)));
}

/** An SSE frame: optional `event:` line, one `data:` line, blank line. */
export function sseFrame(data: unknown, event?: string): string {
  const json = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${json}\n\n`;
}

/** `1,234,567`: how the providers print limits in their messages. */
export function withCommas(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
