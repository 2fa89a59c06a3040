import { RouterError } from '../../src/errors.js';
import type { AssistantMessage, Message, ToolMessage } from '../../src/types.js';
import { geminiUserParts } from './content-parts.js';
import type { GeminiContent, GeminiPart } from './wire-types.js';

interface Where {
  provider: string;
  model: string;
}

/**
 * The signature Google documents for function calls Gemini did not write itself (another provider's
 * turn, a hand-built history): Gemini 3 answers 400 when a call of the current turn has none.
 */
export const FOREIGN_SIGNATURE = 'skip_thought_signature_validator';

/** The history as the API takes it. */
export interface GeminiHistory {
  systemInstruction?: GeminiContent;
  contents: GeminiContent[];
}

/** What a tool result needs to know of the call it answers: the function's name, and the id the call went with. */
interface CallRef {
  name: string;
  id?: string;
}

function replayedParts(message: AssistantMessage): GeminiPart[] | undefined {
  const parts = message.providerParts;
  return parts?.api === 'gemini' && Array.isArray(parts.blocks) ? (parts.blocks as GeminiPart[]) : undefined;
}

function modelParts(message: AssistantMessage, calls: Map<string, CallRef>, signatures: boolean): GeminiPart[] {
  const toolCalls = message.toolCalls ?? [];
  const replay = replayedParts(message);
  if (replay) {
    // The turn exactly as Gemini wrote it; its function calls pair with `toolCalls` in order.
    let i = 0;
    for (const part of replay) {
      if (!part.functionCall) continue;
      const call = toolCalls[i++];
      if (call) calls.set(call.id, { name: part.functionCall.name, ...(part.functionCall.id ? { id: part.functionCall.id } : {}) });
    }
    return replay;
  }
  const parts: GeminiPart[] = message.content ? [{ text: message.content }] : [];
  toolCalls.forEach((call, i) => {
    calls.set(call.id, { name: call.name, id: call.id });
    parts.push({
      functionCall: { id: call.id, name: call.name, args: call.arguments ?? {} },
      ...(signatures && i === 0 ? { thoughtSignature: FOREIGN_SIGNATURE } : {}),
    });
  });
  return parts;
}

function toolResultPart(message: ToolMessage, calls: Map<string, CallRef>, where: Where): GeminiPart {
  const call = calls.get(message.toolCallId);
  if (!call) {
    throw new RouterError('invalid_request', `${where.provider}: tool result "${message.toolCallId}" answers no tool call of an earlier assistant turn (Gemini needs the function's name)`, Object.assign({}, where, { code: 'orphan_tool_result' }));
  }
  // `response` must be an object: the result goes under `output` (or `error`), as the API suggests.
  const response = message.isError ? { error: message.content } : { output: message.content };
  return { functionResponse: Object.assign({}, (call.id ? { id: call.id } : {}), { name: call.name, response }) };
}

/**
 * The history as Gemini contents: system and developer messages hoisted to `systemInstruction`;
 * user turns `user`, assistant turns `model` (a turn with Gemini's own parts replayed verbatim,
 * thought signatures included; others rebuilt, with the documented stand-in signature on a Gemini 3
 * turn's first call); tool results as `functionResponse` parts in a `user` turn, named after the call
 * they answer. Consecutive turns of one role are merged, and empty turns dropped, as the API wants.
 */
export function geminiHistory(messages: readonly Message[], where: Where, options: { signatures: boolean }): GeminiHistory {
  const system: GeminiPart[] = [];
  const contents: GeminiContent[] = [];
  const calls = new Map<string, CallRef>();
  const push = (role: 'user' | 'model', parts: GeminiPart[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts: [...parts] });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        if (message.content !== '') system.push({ text: message.content });
        break;
      case 'user':
        push('user', typeof message.content === 'string' ? (message.content === '' ? [] : [{ text: message.content }]) : geminiUserParts(message.content, where));
        break;
      case 'assistant':
        push('model', modelParts(message, calls, options.signatures));
        break;
      case 'tool':
        push('user', [toolResultPart(message, calls, where)]);
        break;
    }
  }
  return { contents, ...(system.length > 0 ? { systemInstruction: { parts: system } } : {}) };
}
