/**
 * Bedrock wire fixtures (providers/bedrock/README.md): Converse bodies, ConverseStream event-stream
 * frames, and error replies as the restJson1 protocol carries them (`x-amzn-ErrorType` and
 * `{"message"}`). Messages quoted from real errors say so; the rest are marked synthetic.
 */
import { eventFrame, exceptionFrame } from '../../src/sim/event-stream.js';
import type { Reply } from '../../test/support/upstream.js';

const NAMESPACE = 'http://internal.amazon.com/coral/com.amazon.bedrock/';

/** The runtime path of an operation for a model id (the SDK URL-encodes `:` and `/`). */
export const bedrockPath = (model: string, operation: 'converse' | 'converse-stream' | 'invoke') => `/model/${encodeURIComponent(model)}/${operation}`;

/** An error reply: the status, `x-amzn-ErrorType` (name and namespace) and the JSON message. */
export function bedrockError(status: number, type: string, message: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'x-amzn-errortype': `${type}:${NAMESPACE}`, 'x-amzn-requestid': 'e0c7a1b2-0000-4000-8000-000000000001', ...headers }, body: { message } };
}

/** The ThrottlingException messages users report (re:Post knowledge center, GitHub issues). */
export const THROTTLED = {
  requests: 'Too many requests, please wait before trying again.',
  tokens: 'Too many tokens, please wait before trying again.',
  perDay: 'Too many tokens per day, please wait before trying again.',
};

/** A Converse answer: content blocks, the stop reason and usage. */
export function converseBody(content: unknown[], stopReason = 'end_turn', usage: Record<string, unknown> = { inputTokens: 25, outputTokens: 9, totalTokens: 34 }) {
  return { output: { message: { role: 'assistant', content } }, stopReason, usage, metrics: { latencyMs: 412 } };
}

/** A successful JSON reply with Bedrock's request id header. */
export const converseOk = (body: unknown, requestId = '5d3b8f1e-7c2a-4e9b-9f10-1a2b3c4d5e6f'): Reply => ({ status: 200, headers: { 'x-amzn-requestid': requestId }, body });

/** Stream frames of a text answer: messageStart, one delta per piece, contentBlockStop, messageStop, metadata. */
export function textStreamFrames(pieces: readonly string[], usage: Record<string, number> = { inputTokens: 11, outputTokens: 6, totalTokens: 17 }, stopReason = 'end_turn'): Buffer[] {
  return [
    eventFrame('messageStart', { p: 'abcdefghijkl', role: 'assistant' }),
    ...pieces.map((text) => eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text }, p: 'abcdefghij' })),
    eventFrame('contentBlockStop', { contentBlockIndex: 0, p: 'abcdefgh' }),
    eventFrame('messageStop', { stopReason, p: 'abcdefghijklmno' }),
    eventFrame('metadata', { usage, metrics: { latencyMs: 318 }, p: 'abcdefghijklmnopq' }),
  ];
}

/** The frames of one streamed toolUse block at `index`: its start, input fragments and stop. */
export function toolStreamFrames(index: number, toolUseId: string, name: string, fragments: readonly string[]): Buffer[] {
  return [
    eventFrame('contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId, name } }, p: 'abcdef' }),
    ...fragments.map((input) => eventFrame('contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input } }, p: 'abcd' })),
    eventFrame('contentBlockStop', { contentBlockIndex: index, p: 'abcdefg' }),
  ];
}

/** The end of a stream: messageStop and metadata. */
export function streamEndFrames(stopReason: string, usage: Record<string, number> = { inputTokens: 60, outputTokens: 12, totalTokens: 72 }): Buffer[] {
  return [eventFrame('messageStop', { stopReason }), eventFrame('metadata', { usage, metrics: { latencyMs: 200 } })];
}

export { eventFrame, exceptionFrame };
