import type { RelayEvent, StreamEvent } from '../../calls/stream.js';
import type { ErrorKind } from '../../errors.js';
import { errorReply } from '../error-reply.js';
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

/** What relaying a pass-through Responses stream needs from the route: storing the answer, and marking the call's failure. */
export interface RelayHooks {
  /** Keeps the finished answer for `previous_response_id` (called before the client hears it is complete). */
  keep(result: Extract<StreamEvent, { type: 'done' }>['result'], response: Record<string, unknown>): Promise<void>;
  failed(kind: ErrorKind): void;
}

/**
 * A pass-through Responses stream after its start: the upstream's events as they came (numbered
 * and shaped by the upstream), nothing of the gateway's own but, for an interrupted stream, the
 * `error` and `response.failed` events that end it (numbered on from the upstream's, the failed
 * response the upstream's own `response.created` one). The blob that holds the terminal event is
 * held until the router's `done`, so the answer is kept before the client hears it is complete.
 */
export async function relayResponses(out: SseWriter, events: AsyncIterator<RelayEvent>, hooks: RelayHooks): Promise<void> {
  let sequence = -1;
  let created: Record<string, unknown> | undefined;
  let held: string | undefined;
  const write = async (bytes: string) => {
    const wrote = out.bytes(bytes);
    if (wrote) await wrote;
  };
  const fail = async (code: string, message: string) => {
    if (held !== undefined && terminalResponse(held) === undefined) await write(held);
    held = undefined;
    const response = Object.assign({}, created, { status: 'failed', error: { code, message } });
    const error = { type: 'error', sequence_number: ++sequence, code, message, param: null };
    const failed = { type: 'response.failed', sequence_number: ++sequence, response };
    await out.named([error, failed]);
  };
  try {
    for (;;) {
      const next = await events.next();
      if (next.done) break;
      const event = next.value;
      if (event.type === 'raw') {
        if (held !== undefined) await write(held);
        held = undefined;
        const bytes = event.bytes;
        if (created === undefined) {
          const first = upstreamEvents(bytes).find((e) => e.type === 'response.created');
          created = first?.response ?? {};
        }
        sequence = lastSequence(bytes) ?? sequence;
        if (mayEnd(bytes)) held = bytes;
        else await write(bytes);
        if (out.gone) return;
      } else if (event.type === 'interrupted') {
        hooks.failed(event.error.kind);
        await fail(event.error.code ?? event.error.kind, event.error.message);
        return;
      } else if (event.type === 'done') {
        const response = held === undefined ? undefined : terminalResponse(held);
        if (response) await hooks.keep(event.result, response);
        if (held !== undefined) await write(held);
        return;
      }
    }
  } catch (err) {
    // Past the headers an error can only be an event; the router itself ends every stream with one.
    const { body } = errorReply(err);
    await fail(body.error.code ?? 'server_error', body.error.message);
  }
}
