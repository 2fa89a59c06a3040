import type { Answer, PlannedToolCall } from './answer.js';

/** Characters of tool-call arguments per streamed fragment. */
export const ARGUMENT_FRAGMENT_CHARS = 16;

/**
 * One piece of a streamed answer, in the order a stream sends them. These are what stream faults
 * count (`afterChunks`, `cutAfterChunks`): every text delta, every tool-call start, every fragment
 * of a call's arguments.
 */
export type AnswerChunk =
  | { type: 'text'; text: string }
  | { type: 'tool_start'; index: number; call: PlannedToolCall }
  | { type: 'tool_args'; index: number; fragment: string };

/** Word-sized pieces, each keeping its leading space, so the deltas join back into the text exactly. */
export function splitPieces(text: string): string[] {
  return text.match(/\s*\S+/g) ?? (text ? [text] : []);
}

/** A call's argument JSON in fragments of `ARGUMENT_FRAGMENT_CHARS`; joined they are the JSON. */
export function argumentFragments(json: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < json.length; i += ARGUMENT_FRAGMENT_CHARS) out.push(json.slice(i, i + ARGUMENT_FRAGMENT_CHARS));
  return out;
}

/** The chunks of an answer: its text a word at a time, then each call's start and its argument fragments. */
export function answerChunks(answer: Answer): AnswerChunk[] {
  const chunks: AnswerChunk[] = splitPieces(answer.text).map((text) => ({ type: 'text', text }));
  answer.toolCalls.forEach((call, index) => {
    chunks.push({ type: 'tool_start', index, call });
    for (const fragment of argumentFragments(call.argumentsJson)) chunks.push({ type: 'tool_args', index, fragment });
  });
  return chunks;
}
