import { createHash } from 'node:crypto';
import type { GeminiFunctionCall } from './wire-types.js';

/**
 * A function call's id: the API's own when it gives one; otherwise one derived from the answer's
 * `responseId`, the call's place among the answer's calls, its name and arguments, so the same
 * answer read twice (plain or streamed) names its calls alike, and two calls of one answer never
 * share an id.
 */
export function geminiToolCallId(call: GeminiFunctionCall, ordinal: number, responseId: string | undefined): string {
  if (typeof call.id === 'string' && call.id !== '') return call.id;
  const digest = createHash('sha256').update(`${responseId ?? ''}\u0000${ordinal}\u0000${call.name}\u0000${JSON.stringify(call.args ?? {})}`).digest('base64url');
  return `call_${digest.slice(0, 24)}`;
}
