import { ANSWER_MAX_DEPTH, nestsDeeperThan } from './input-bounds.js';

/** An answer read as JSON: the value, or why it is not JSON. */
export type JsonAnswer = { ok: true; value: unknown } | { ok: false; reason: string };

// Only a fence wrapping the whole answer is unwrapped: prose around the JSON still fails, because
// an application that calls JSON.parse on the answer would fail on it too.
const WHOLE_FENCE = /^```[ \t]*(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*```$/;

/** Parses an answer as JSON, tolerating one Markdown code fence (```json ... ```) around the whole of it; one nested deeper than ANSWER_MAX_DEPTH is not taken. */
export function parseJsonAnswer(answer: string): JsonAnswer {
  const trimmed = answer.trim();
  const body = WHOLE_FENCE.exec(trimmed)?.[1] ?? trimmed;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    return { ok: false, reason: `not valid JSON: ${(err as Error).message.slice(0, 100)}` };
  }
  // JSON.parse takes any depth; validating or serialising the value again would overflow the stack.
  if (nestsDeeperThan(value, ANSWER_MAX_DEPTH)) return { ok: false, reason: `JSON nested deeper than ${ANSWER_MAX_DEPTH} levels` };
  return { ok: true, value };
}
