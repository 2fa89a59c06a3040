import type { RelayEvent } from '../../calls/stream.js';
import { responsesFailure } from './failure.js';
import { relayEvents, type DoneEvent, type WireRelay } from '../relay-events.js';
import type { SseWriter } from '../sse-writer.js';

/** A Responses stream event as the upstream sent it, parsed: its `type`, its `sequence_number`, its `response` when it has one. */
interface UpstreamEvent {
  type?: string;
  sequence_number?: number;
  response?: Record<string, unknown>;
}

const TERMINAL = new Set(['response.completed', 'response.incomplete']);

/** The events of whole SSE text, parsed (the `data` lines of each; comments and unparsable data skipped). */
export function upstreamEvents(text: string): UpstreamEvent[] {
  const out: UpstreamEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let data: string | undefined;
    for (const line of block.split(/\r?\n/)) {
      if (!line.startsWith('data:')) continue;
      const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
      data = data === undefined ? value : `${data}\n${value}`;
    }
    if (data === undefined) continue;
    try {
      out.push(JSON.parse(data) as UpstreamEvent);
    } catch {
      // Not an event the relay needs to read: it went to the client as it came.
    }
  }
  return out;
}

/** The Response object of the terminal event (`response.completed` / `response.incomplete`) in `text`, if any. */
export function terminalResponse(text: string): Record<string, unknown> | undefined {
  for (const event of upstreamEvents(text)) if (event.type && TERMINAL.has(event.type) && event.response) return event.response;
  return undefined;
}

// Cheap test for a blob that may hold the terminal event: an unescaped JSON string token. A delta whose text is
// exactly one of these only holds its blob back until the next event.
const mayEnd = (bytes: string) => bytes.includes('"response.completed"') || bytes.includes('"response.incomplete"');

/** The number after the last `"sequence_number":` of `bytes` (its events come in order), or undefined. */
function lastSequence(bytes: string): number | undefined {
  const at = bytes.lastIndexOf('"sequence_number":');
  if (at < 0) return undefined;
  const n = Number.parseInt(bytes.slice(at + 18, at + 40), 10);
  return Number.isFinite(n) ? n : undefined;
}

/** What relaying a pass-through Responses stream needs from the route: storing the answer. */
export interface RelayHooks {
  /** Keeps the finished answer for `previous_response_id` (called before the client hears it is complete). */
  keep(result: DoneEvent['result'], response: Record<string, unknown>): Promise<void>;
}

/** One pass-through stream's relay state: the last sequence number, the upstream's created Response, the blob held back. */
interface Relayed {
  hooks: RelayHooks;
  sequence: number;
  created: Record<string, unknown> | undefined;
  held: string | undefined;
}

async function write(out: SseWriter, bytes: string): Promise<void> {
  const wrote = out.bytes(bytes);
  if (wrote) await wrote;
}

/** A `raw` blob: written as it came, unless it may hold the terminal event (held until `done`). */
async function relayRaw(out: SseWriter, r: Relayed, bytes: string): Promise<void> {
  if (r.held !== undefined) await write(out, r.held);
  r.held = undefined;
  if (r.created === undefined) {
    const first = upstreamEvents(bytes).find((e) => e.type === 'response.created');
    r.created = first?.response ?? {};
  }
  r.sequence = lastSequence(bytes) ?? r.sequence;
  if (mayEnd(bytes)) r.held = bytes;
  else await write(out, bytes);
}

const PASSED: WireRelay<Relayed> = {
  endsWithDone: false,
  // Only the upstream's bytes go out; the router's own events beside them (text, tool calls) are not written.
  event: (out, r, event) => (event.type === 'raw' ? relayRaw(out, r, event.bytes) : undefined),
  async done(out, r, event) {
    const response = r.held === undefined ? undefined : terminalResponse(r.held);
    if (response) await r.hooks.keep(event.result, response);
    if (r.held !== undefined) await write(out, r.held);
  },
  async fail(out, r, err) {
    const { code, message } = responsesFailure(err);
    if (r.held !== undefined && terminalResponse(r.held) === undefined) await write(out, r.held);
    r.held = undefined;
    const response = Object.assign({}, r.created, { status: 'failed', error: { code, message } });
    const error = { type: 'error', sequence_number: ++r.sequence, code, message, param: null };
    const failed = { type: 'response.failed', sequence_number: ++r.sequence, response };
    await out.named([error, failed]);
  },
};

/**
 * A pass-through Responses stream after its start: the upstream's events as they came (numbered
 * and shaped by the upstream), nothing of the gateway's own but, for an interrupted stream, the
 * `error` and `response.failed` events that end it (numbered on from the upstream's, the failed
 * response the upstream's own `response.created` one). The blob that holds the terminal event is
 * held until the router's `done`, so the answer is kept before the client hears it is complete.
 * Ends the response and the router stream (relayEvents).
 */
export async function relayResponses(out: SseWriter, events: AsyncIterator<RelayEvent>, hooks: RelayHooks, context: { kind?: string }): Promise<void> {
  const relayed: Relayed = { hooks, sequence: -1, created: undefined, held: undefined };
  await relayEvents(out, events, undefined, PASSED, relayed, context);
}
