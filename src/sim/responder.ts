import type { OutgoingHttpHeaders } from 'node:http';
import type { ResponseScope } from './response-scope.js';
import type { StreamFrames } from './wire.js';

/** Sends a JSON body after `delayMs`. */
export async function sendJson(scope: ScopeLike, status: number, headers: OutgoingHttpHeaders, body: unknown, delayMs = 0): Promise<void> {
  if (!(await scope.sleep(delayMs))) return;
  const payload = JSON.stringify(body);
  scope.res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  scope.res.end(payload);
}

/** Sends the first half of a JSON body under a full `content-length`, then drops the connection. */
export async function sendCutJson(scope: ScopeLike, status: number, headers: OutgoingHttpHeaders, body: unknown, delayMs = 0): Promise<void> {
  if (!(await scope.sleep(delayMs))) return;
  const payload = JSON.stringify(body);
  scope.res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  scope.cut(payload.slice(0, Math.floor(payload.length / 2)));
}

/** How a stream is paced and whether it ends badly. */
export interface StreamPlan {
  /** Before the status line and the head frames. */
  firstByteMs: number;
  /** Before each chunk (same length as the chunks; empty for none). */
  chunkDelaysMs: readonly number[];
  /** Drop the connection after this many chunks, before the terminal frames. */
  cutAfter?: number;
  /** Send the API's mid-stream error frame after this many chunks, then end. */
  errorAfter?: number;
}

/** Writes an SSE answer; consecutive frames with no wait between them go out in one write. */
export async function sendStream(scope: ScopeLike, headers: OutgoingHttpHeaders, frames: StreamFrames, plan: StreamPlan): Promise<void> {
  if (!(await scope.sleep(plan.firstByteMs))) return;
  const { res } = scope;
  const encoding = frames.encoding ?? 'utf8';
  res.writeHead(200, { ...headers, 'content-type': frames.contentType ?? 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  let pending = frames.head.join('');
  for (let i = 0; i <= frames.chunks.length; i++) {
    if (plan.cutAfter === i) return scope.cut(pending, encoding);
    if (plan.errorAfter === i) return void res.end(pending + frames.error, encoding);
    if (i === frames.chunks.length) break;
    const waitMs = plan.chunkDelaysMs[i] ?? 0;
    if (waitMs > 0) {
      if (pending) res.write(pending, encoding);
      pending = '';
      if (!(await scope.sleep(waitMs))) return;
    }
    pending += frames.chunks[i]!.data;
  }
  res.end(pending + frames.tail.join(''), encoding);
}

/** The part of `ResponseScope` the writers use. */
export type ScopeLike = Pick<ResponseScope, 'res' | 'sleep' | 'cut'>;
