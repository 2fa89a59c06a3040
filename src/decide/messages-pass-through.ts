import type { RawMessagesTarget } from '../../providers/types.js';
import type { JSONSchema } from '../types.js';
import type { PassThroughSent } from './pass-through.js';
import { sameJson } from './responses-pass-through.js';

/**
 * The Messages fields an Anthropic target takes exactly as the client sent them. Anthropic's own
 * fields need no mapping on their way to Anthropic, even those the translated path drops for want of
 * a cross-provider meaning (`context_management`, a tool's `eager_input_streaming`): pass-through
 * sends what the client meant. What the router would change for the target disqualifies a body:
 * the API version's refusals, the model's traits, the chain step's settings, the history repairs.
 */
const VERBATIM = new Set([
  'model', 'max_tokens', 'messages', 'system', 'stream', 'stop_sequences', 'tools', 'tool_choice', 'metadata', 'thinking',
  'output_config', 'top_k', 'service_tier', 'inference_geo', 'speed', 'cache_control', 'context_management',
]);
const FORCED = new Set(['any', 'tool']);
const THINKING = new Set(['thinking', 'redacted_thinking']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Why an Anthropic Messages body cannot go to this target as the client sent it (only `model`
 * rewritten), or undefined when it can. Pure: the body (already read and checked by the gateway's
 * converter, src/gateway/messages/from-anthropic.ts, so its types are right), what the adapter says
 * of the target's model (undefined: not an Anthropic target), and what the router would send it.
 * Each rule names what the translated path (providers/anthropic/adapter-body.ts and the modules it
 * calls) would drop, rewrite or add.
 */
export function messagesPassThroughBlocker(body: Readonly<Record<string, unknown>>, target: RawMessagesTarget | undefined, sent: PassThroughSent): string | undefined {
  if (!target) return 'the target does not take Anthropic Messages bodies as they are';
  for (const key in body) {
    if (key === 'temperature' || key === 'top_p') return `${key} is dropped by the router (API version 2026-10-21 refuses it)`;
    if (!VERBATIM.has(key)) return `${key} is mapped by the router`;
    if (body[key] === null) return `${key} is null (dropped by the router)`;
  }
  if (body.max_tokens === undefined) return 'max_tokens is set by the router';
  if (sent.maxTokens !== body.max_tokens) return 'the chain step sets maxTokens';
  const extra = extraBlocker(body, sent.extraBody);
  if (extra) return extra;
  if (Array.isArray(body.stop_sequences) && body.stop_sequences.some((s) => typeof s === 'string' && s.trim() === '')) return 'a whitespace-only stop sequence is dropped by the router';
  if (isObject(body.metadata) && body.metadata.user_id === '') return 'an empty metadata.user_id is dropped by the router';
  const tools = toolsBlocker(body, target);
  if (tools) return tools;
  const output = isObject(body.output_config) ? body.output_config : undefined;
  if (output && isObject(output.format)) {
    if (!target.structuredOutput) return 'output_config.format on a model without structured output goes as a forced tool';
    if (!sameJson(target.sentSchema(output.format.schema as JSONSchema, true), output.format.schema)) return 'output_config.format\'s schema is closed by the router';
  }
  return thinkingBlocker(body, target, output);
}

/** `providerOptions` the gateway passes on are Anthropic's own fields, the same values already in the body; any other adds to it. */
function extraBlocker(body: Readonly<Record<string, unknown>>, extra: PassThroughSent['extraBody']): string | undefined {
  if (extra === true) return 'providerOptions add to the body';
  if (extra) for (const key in extra) if (!Object.is(extra[key], body[key])) return 'providerOptions add to the body';
  return undefined;
}

/** Client tools whose schema the router sends as it came, and no history the router patches with stand-in tools. */
function toolsBlocker(body: Readonly<Record<string, unknown>>, target: RawMessagesTarget): string | undefined {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const tool of tools) {
    if (!isObject(tool)) return 'a tool is not an object';
    const name = String(tool.name);
    if (!isObject(tool.input_schema)) return `tool ${name} has no input_schema (the router sends an empty object schema)`;
    if (!sameJson(target.sentSchema(tool.input_schema as JSONSchema, tool.strict === true), tool.input_schema)) return `tool ${name}'s schema is rewritten by the router`;
  }
  if (tools.length > 0) return undefined;
  if (body.tool_choice !== undefined) return 'tool_choice without tools is dropped by the router';
  if (Array.isArray(body.messages) && body.messages.some(hasToolBlock)) return 'tool blocks in the history without tools (the router adds stand-in definitions)';
  return undefined;
}

function hasToolBlock(message: unknown): boolean {
  const content = isObject(message) ? message.content : undefined;
  return Array.isArray(content) && content.some((b) => isObject(b) && (b.type === 'tool_use' || b.type === 'tool_result'));
}

/** Thinking as the client wrote it, when the model takes that form and the router would not turn it off. */
function thinkingBlocker(body: Readonly<Record<string, unknown>>, target: RawMessagesTarget, output: Record<string, unknown> | undefined): string | undefined {
  const thinking = isObject(body.thinking) ? body.thinking : undefined;
  const effort = output?.effort !== undefined;
  const on = effort || (thinking !== undefined && thinking.type !== 'disabled');
  if (!on) return undefined;
  if (target.thinking === 'none') return 'thinking on a model that does not think is dropped by the router';
  if (effort && target.thinking !== 'adaptive') return 'output_config.effort on a model that takes budget_tokens is mapped by the router';
  if (thinking?.type === 'enabled' && target.thinking === 'adaptive') return 'thinking.budget_tokens on a model that thinks adaptively is mapped by the router';
  if (thinking?.type === 'adaptive' && target.thinking === 'budget') return 'adaptive thinking on a model that takes budget_tokens is mapped by the router';
  const choice = isObject(body.tool_choice) ? body.tool_choice.type : undefined;
  if (typeof choice === 'string' && FORCED.has(choice)) return 'thinking with a forced tool is turned off by the router';
  if (lastToolTurnWithoutThinking(body.messages)) return 'thinking after a tool-calling turn without thinking blocks is turned off by the router';
  return undefined;
}

/** The last assistant turn calls tools without opening with thinking (it came from another API): the router turns thinking off then. */
function lastToolTurnWithoutThinking(messages: unknown): boolean {
  if (!Array.isArray(messages)) return false;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (!isObject(message) || message.role !== 'assistant') continue;
    const content = Array.isArray(message.content) ? message.content.filter(isObject) : [];
    return content.some((b) => b.type === 'tool_use') && !content.some((b) => THINKING.has(b.type as string));
  }
  return false;
}
