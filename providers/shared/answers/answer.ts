import type { JSONSchema, Message, ToolChoice } from '../../../src/types.js';
import { fakeAnswer } from './fake-text.js';
import type { FillContext } from './field-value.js';
import { breakJson, jsonAnswerText, type AnswerFormat } from './json-answer.js';
import { promptContext } from './prompt-context.js';
import { asksForJson } from './prompt-json.js';
import { reasoningTokensFor } from './reasoning.js';
import { valueForSchema } from './schema-value.js';
import { stableHashHex } from './stable-hash.js';
import { approxTokens } from './tokens.js';
import { chooseTools } from './tool-choice.js';
import { toolResultAnswer } from './tool-result-text.js';
import { truncateToTokens } from './truncate.js';

/** A tool as the answer generator sees it (any API's definition, reduced to these). */
export interface AnswerTool {
  name: string;
  description?: string;
  parameters?: JSONSchema;
}

/** Everything about a request that shapes its deterministic answer, whichever API it came through. */
export interface AnswerRequest {
  model: string;
  messages: readonly Message[];
  maxTokens?: number;
  tools?: readonly AnswerTool[];
  toolChoice?: ToolChoice;
  /** @default true */
  parallelToolCalls?: boolean;
  responseFormat?: AnswerFormat;
  /** `spendTokens`: a thinking budget the model spends whole (the simulated Gemini's `thinkingBudget`), instead of the effort's tokens. */
  reasoning?: { effort?: string; spendTokens?: number };
}

/** Ways to bend an answer: faults and per-API habits. */
export interface AnswerOptions {
  /** The JSON the model writes (structured output, tool arguments) comes out broken (`breakJson`). */
  invalidJson?: boolean;
  /** A short sentence before the tool calls ("I'll call get_weather."), as Claude writes under `auto`. */
  textBeforeToolCalls?: boolean;
}

/** One tool call of an answer. */
export interface PlannedToolCall {
  /** Seed of the call's id: each API formats it its own way (`toolCallId`). */
  key: string;
  name: string;
  /** The arguments generated from the tool's schema. */
  arguments: Record<string, unknown>;
  /** The arguments as the model writes them: their JSON, unless cut short by `maxTokens` or broken by `invalidJson`. */
  argumentsJson: string;
  /** False when `maxTokens` cut the arguments short. */
  complete: boolean;
}

/** The deterministic answer to one request, with honest token counts. */
export interface Answer {
  text: string;
  toolCalls: PlannedToolCall[];
  /** `tool_calls` when there are calls and nothing was cut; `length` when `maxTokens` cut the answer. */
  finish: 'stop' | 'length' | 'tool_calls';
  /** The request named the tool to call (OpenAI then ends with `stop`, not `tool_calls`). */
  forcedTool: boolean;
  /** Everything generated: text, tool-call arguments and reasoning (4 characters a token). */
  outputTokens: number;
  /** Of `outputTokens`, spent reasoning (per `REASONING_TOKENS`, at most `maxTokens`). */
  reasoningTokens: number;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The answer a simulated model gives, the same every time for the same request:
 * 1. tool calls when `chooseTools` picks any, with arguments from `valueForSchema(tool.parameters)`,
 *    filled from the prompt where it has the values (the city it names, the order id it quotes);
 * 2. otherwise text: after tool results `toolResultAnswer`, else `fakeAnswer` (which follows the
 *    instructions a simulator can follow); with a `responseFormat`, or a prompt that asks for JSON
 *    (`asksForJson`), JSON instead (`jsonAnswerText`), its values drawn from the prompt too.
 * Reasoning tokens (the effort's, or a thinking budget spent whole) come first out of `maxTokens`; the rest bounds text then arguments, in order, at
 * 4 characters a token, and whatever does not fit is cut (finish `length`; a call cut short has
 * `complete: false`, calls after it are dropped).
 */
export function planAnswer(request: AnswerRequest, options: AnswerOptions = {}): Answer {
  const { model, messages, maxTokens } = request;
  const reasoningTokens = Math.min(request.reasoning?.spendTokens ?? reasoningTokensFor(request.reasoning?.effort), maxTokens ?? Infinity);
  const budget = maxTokens === undefined ? undefined : maxTokens - reasoningTokens;
  const chosen = chooseTools(request.tools, request.toolChoice, messages, request.parallelToolCalls ?? true);
  const prompt = promptContext(messages);
  let textAnswer: string | undefined;
  const answerText = () => (textAnswer ??= toolResultAnswer(messages) ?? fakeAnswer(messages, model, prompt));
  const fill: FillContext = { prompt, answerText };

  if (chosen.length > 0) {
    const conversation = `${model}\u0000${stableHashHex(JSON.stringify(messages))}`;
    const planned = chosen.map((tool, i): PlannedToolCall => {
      const value = valueForSchema(tool.parameters ?? { type: 'object', properties: {} }, 'value', fill);
      const args = isRecord(value) ? value : {};
      const json = JSON.stringify(args);
      return { key: `${conversation}\u0000${i}\u0000${tool.name}`, name: tool.name, arguments: args, argumentsJson: options.invalidJson ? breakJson(json) : json, complete: true };
    });
    let text = options.textBeforeToolCalls ? `I'll call ${chosen.map((t) => t.name).join(' and ')}.` : '';
    let room = budget === undefined ? Infinity : budget * 4;
    let cut = false;
    const toolCalls: PlannedToolCall[] = [];
    if (text.length > room) {
      text = text.slice(0, Math.max(0, room));
      cut = true;
    } else {
      room -= text.length;
      for (const call of planned) {
        if (call.argumentsJson.length <= room) {
          toolCalls.push(call);
          room -= call.argumentsJson.length;
          continue;
        }
        cut = true;
        if (room > 0) toolCalls.push(Object.assign({}, call, { argumentsJson: call.argumentsJson.slice(0, room), complete: false }));
        break;
      }
    }
    const chars = text.length + toolCalls.reduce((n, c) => n + c.argumentsJson.length, 0);
    return {
      text, toolCalls, finish: cut ? 'length' : 'tool_calls', forcedTool: typeof request.toolChoice === 'object',
      outputTokens: reasoningTokens + (chars > 0 ? Math.ceil(chars / 4) : 0), reasoningTokens,
    };
  }

  const format = request.responseFormat ?? (asksForJson(prompt) ? { type: 'json' as const } : undefined);
  let text = format ? jsonAnswerText(format, '', fill) : answerText();
  if (options.invalidJson) text = breakJson(text);
  const cut = truncateToTokens(text, budget);
  return {
    text: cut.text, toolCalls: [], finish: cut.truncated ? 'length' : 'stop', forcedTool: false,
    outputTokens: reasoningTokens + (cut.text ? approxTokens(cut.text) : 0), reasoningTokens,
  };
}
