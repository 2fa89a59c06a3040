import type { PassThroughApi, ProviderResponse, ResponsesFields } from '../../providers/types.js';
import { passThroughAddsUsage, passThroughMismatch } from '../decide/pass-through.js';
import type { PassThroughBody } from '../decide/pass-through-send.js';
import type { ChatRequest, ChatResult, EmbedRequest, EmbedResult } from '../types.js';

// Pass-through, the one seam: the gateway's client bytes go in on a request and the upstream's come
// back on its answer through the members below, all symbol-keyed, so none is part of the public
// request, result or stream event (a `router.chat` caller's types never show wire bytes) and none is
// serialised by accident. Whether a target takes the bytes is decided once per target, in
// src/decide/pass-through-send.ts; this file only carries.

/** The key under which a request carries its pass-through body (a `PassThrough`). */
export const PASS_THROUGH: unique symbol = Symbol.for('switchyard.passThrough') as never;
/** The key under which a result carries the upstream's body as it came (a `RawAnswer`), and a stream's `start` says raw bytes follow. */
export const RAW_ANSWER: unique symbol = Symbol.for('switchyard.rawAnswer') as never;

/** The key under which a `/v1/responses` request carries its Responses-only fields (a `ResponsesFields`). */
export const RESPONSES_FIELDS: unique symbol = Symbol.for('switchyard.responsesFields') as never;

/**
 * The client's body as it came (`text`) and parsed (`body`, which the request's fields were
 * converted from), for the API it is written for. Built once per request by the gateway; what the
 * decision reads of it (`addsUsage`, `streamed`) is read here, once.
 */
export class PassThrough implements PassThroughBody {
  readonly addsUsage: boolean;
  readonly streamed: boolean;
  constructor(readonly text: string, readonly body: Record<string, unknown>, readonly api: PassThroughApi) {
    this.streamed = body.stream === true;
    this.addsUsage = api === 'chat' && passThroughAddsUsage(body);
  }
}

/** An upstream's body as it came, and the API it answers (set by the adapter): a route relays only its own API's. */
export type RawAnswer = Pick<ProviderResponse, 'rawApi' | 'rawParsed'> & { raw: string };

/** A stream event that only a pass-through stream carries: the upstream's bytes, whole SSE events as they came, before the text they carry. */
export interface RawBytes {
  type: 'raw';
  bytes: string;
}

type Carrying = { [PASS_THROUGH]?: PassThrough; [RESPONSES_FIELDS]?: ResponsesFields };
type Answering = { [RAW_ANSWER]?: RawAnswer };

/** Gives a request the client's bytes to pass through (the gateway's entry): a target that takes them as they are is sent them. */
export function withPassThrough<R extends ChatRequest | EmbedRequest>(request: R, pass: PassThrough): R {
  (request as Carrying)[PASS_THROUGH] = pass;
  return request;
}

/** The request's pass-through body, if it carries one. */
export function passThroughOf(request: ChatRequest | EmbedRequest): PassThrough | undefined {
  return (request as Carrying)[PASS_THROUGH];
}

/**
 * Gives a request the fields of its client's Responses body that only the Responses API has a
 * meaning for (the gateway's `/v1/responses`): a Responses target's translated body carries them,
 * every other target never sees them. Not part of the public request, like the pass-through body.
 */
export function withResponsesFields(request: ChatRequest, fields: ResponsesFields): ChatRequest {
  (request as Carrying)[RESPONSES_FIELDS] = fields;
  return request;
}

/** The request's Responses-only fields, if it carries any. */
export function responsesFieldsOf(request: ChatRequest): ResponsesFields | undefined {
  return (request as Carrying)[RESPONSES_FIELDS];
}

/** Why a request's pass-through body cannot be sent by this operation (`stream: true` must meet router.stream), or undefined. */
export function passThroughRefusal(request: ChatRequest, operation: 'chat' | 'stream'): string | undefined {
  const pass = passThroughOf(request);
  return pass && passThroughMismatch(pass.body, operation);
}

/** Hands a result the upstream's body (no copy: the adapter's answer holds it). */
export function withRawAnswer<R extends ChatResult | EmbedResult>(result: R, answer: RawAnswer): R {
  (result as Answering)[RAW_ANSWER] = answer;
  return result;
}

/** The upstream's body a result carries, if it passed through (kept across the response cache and idempotent replays). */
export function rawAnswerOf(result: ChatResult | EmbedResult): RawAnswer | undefined {
  return (result as Answering)[RAW_ANSWER];
}

/** True on the `start` of a stream whose committed attempt sent the request's pass-through bytes: `raw` events follow. */
export function startsRaw(start: object): boolean {
  return (start as { [RAW_ANSWER]?: true })[RAW_ANSWER] === true;
}

/** Marks a stream's `start` as raw (see `startsRaw`): spread into it. */
export const RAW_START: Readonly<{ [RAW_ANSWER]: true }> = Object.freeze({ [RAW_ANSWER]: true as const });

/** The field a stored result keeps its raw answer in (JSON drops symbol keys). */
const STORED = 'rawAnswer';

/** A result as the response cache and the idempotency store keep it: JSON, its raw answer (body and API) in it too. */
export function storedResult(result: object): string {
  const answer = (result as Answering)[RAW_ANSWER];
  return JSON.stringify(answer === undefined ? result : Object.assign({}, result, { [STORED]: { raw: answer.raw, rawApi: answer.rawApi } }));
}

/** A result read back from `storedResult`'s JSON, its raw answer a member of the seam again. */
export function restoredResult(text: string): ChatResult {
  const stored = JSON.parse(text) as ChatResult & { [STORED]?: RawAnswer };
  const answer = stored[STORED];
  if (answer === undefined) return stored;
  delete stored[STORED];
  return withRawAnswer(stored, answer);
}
