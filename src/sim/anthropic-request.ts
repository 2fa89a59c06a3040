import type { IncomingHttpHeaders } from 'node:http';
import type { AnswerTool } from '../../providers/shared/answers/index.js';
import type { ContentPart, Message, ToolCall, ToolChoice, ToolMessage } from '../types.js';
import { decodeBase64, IMAGE_MEDIA_TYPES, isHttpUrl, sniffImage } from './data-url.js';
import { textOf, type SimError, type SimRequest } from './sim-request.js';
import { signatureMatches } from './thinking.js';
import { anthropicCachePoints } from './cache-points.js';

// Messages follow ../shared/reference/provider-wire-formats.md §2 and -wave2.md §1.3, §3.2, §4.3, §5.1.
// Those the reference quotes are the real ones; the rest are marked synthetic in src/sim/README-additions.md.
/** API version 2026-10-21 (what SDK 1.x sends) rejects these even at their default values. */
const REMOVED_IN_2026 = ['temperature', 'top_p', 'top_k'];
const TOOL_ID = /^[a-zA-Z0-9_-]+$/;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const NON_EMPTY = 'all messages must have non-empty content except for the optional final assistant message';

export const invalid = (message: string): SimError => ({ kind: 'invalid_request', message });
const isObject = (x: unknown): x is Record<string, any> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** What a raw message turned into, with the facts the pairing rules need. */
interface Turn {
  role: 'user' | 'assistant';
  messages: Message[];
  toolUseIds: string[];
  /** `tool_result` ids with their block index. */
  toolResults: Array<{ id: string; j: number }>;
  /** Type of the first content block (`thinking`, `text`, `tool_use`, ...). */
  firstBlock?: string;
}

function imagePart(block: any, path: string): ContentPart | SimError {
  const source = isObject(block.source) ? block.source : {};
  if (source.type === 'url') {
    if (typeof source.url !== 'string' || !isHttpUrl(source.url)) return invalid(`${path}.image.source.url.url: Input should be a valid URL`);
    return { type: 'image', url: source.url };
  }
  if (source.type === 'file') return { type: 'image', url: `file:${String(source.file_id)}` };
  if (source.type !== 'base64') return invalid(`${path}.image.source: Input tag '${String(source.type)}' found using 'type' does not match any of the expected tags: 'base64', 'url', 'file'`);
  if (!(IMAGE_MEDIA_TYPES as readonly string[]).includes(source.media_type)) {
    return invalid(`${path}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`);
  }
  const bytes = typeof source.data === 'string' ? decodeBase64(source.data) : undefined;
  const sniffed = bytes && bytes.length > 0 ? sniffImage(bytes) : undefined;
  if (!sniffed) return invalid('Could not process image');
  if (sniffed !== source.media_type) return invalid(`${path}.image.source.base64.data: Image does not match the provided media type ${source.media_type}`);
  return { type: 'image', url: `data:${source.media_type};base64,${source.data}` };
}

function documentPart(block: any, path: string): ContentPart | SimError {
  const source = isObject(block.source) ? block.source : {};
  const filename = typeof block.title === 'string' ? block.title : undefined;
  if (source.type === 'text') {
    return { type: 'file', data: Buffer.from(String(source.data ?? '')).toString('base64'), mediaType: 'text/plain', ...(filename ? { filename } : {}) };
  }
  if (source.type === 'url' || source.type === 'file' || source.type === 'content') return { type: 'file', data: '', mediaType: 'application/pdf', ...(filename ? { filename } : {}) };
  if (source.type !== 'base64') return invalid(`${path}.document.source: Input tag '${String(source.type)}' found using 'type' does not match any of the expected tags: 'base64', 'text', 'content', 'url', 'file'`);
  if (source.media_type !== 'application/pdf') return invalid(`${path}.document.source.base64.media_type: Input should be 'application/pdf'`);
  const bytes = typeof source.data === 'string' ? decodeBase64(source.data) : undefined;
  if (!bytes || bytes.length === 0) return invalid(`${path}.document.source.base64.data: The PDF specified was not valid.`);
  return { type: 'file', data: source.data, mediaType: 'application/pdf', ...(filename ? { filename } : {}) };
}

function turnOf(m: any, i: number, last: boolean, seenIds: Set<string>): Turn | SimError {
  const role = m?.role;
  if (role !== 'user' && role !== 'assistant') return invalid(`messages.${i}.role: Input should be 'user' or 'assistant'`);
  const turn: Turn = { role, messages: [], toolUseIds: [], toolResults: [] };
  const finalAssistant = last && role === 'assistant';
  if (typeof m.content === 'string') {
    if (m.content === '' && !finalAssistant) return invalid(`messages.${i}: ${NON_EMPTY}`);
    turn.firstBlock = 'text';
    turn.messages.push(role === 'user' ? { role, content: m.content } : { role, content: m.content });
    return turn;
  }
  if (!Array.isArray(m.content)) return invalid(`messages.${i}.content: Input should be a valid list`);
  if (m.content.length === 0 && !finalAssistant) return invalid(`messages.${i}: ${NON_EMPTY}`);
  const parts: ContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  const results: ToolMessage[] = [];
  for (let j = 0; j < m.content.length; j++) {
    const block = m.content[j];
    const path = `messages.${i}.content.${j}`;
    const type = isObject(block) ? block.type : undefined;
    if (j === 0) turn.firstBlock = String(type);
    if (type === 'text') {
      if (typeof block.text !== 'string' || block.text === '') return invalid('messages: text content blocks must be non-empty');
      if (!block.text.trim()) return invalid('messages: text content blocks must contain non-whitespace text');
      parts.push({ type: 'text', text: block.text });
    } else if (type === 'image' && role === 'user') {
      const part = imagePart(block, path);
      if ('kind' in part) return part;
      parts.push(part);
    } else if (type === 'document' && role === 'user') {
      const part = documentPart(block, path);
      if ('kind' in part) return part;
      parts.push(part);
    } else if (type === 'tool_use' && role === 'assistant') {
      if (typeof block.id !== 'string' || !TOOL_ID.test(block.id)) return invalid(`${path}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      if (seenIds.has(block.id)) return invalid(`${path}: \`tool_use\` ids must be unique`);
      seenIds.add(block.id);
      turn.toolUseIds.push(block.id);
      toolCalls.push({ id: block.id, name: String(block.name ?? ''), arguments: isObject(block.input) ? block.input : {} });
    } else if (type === 'tool_result' && role === 'user') {
      if (typeof block.tool_use_id !== 'string' || !TOOL_ID.test(block.tool_use_id)) return invalid(`${path}.tool_result.tool_use_id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      turn.toolResults.push({ id: block.tool_use_id, j });
      results.push({ role: 'tool', toolCallId: block.tool_use_id, content: textOf(block.content), ...(block.is_error === true ? { isError: true } : {}) });
    } else if ((type === 'thinking' || type === 'redacted_thinking') && role === 'assistant') {
      if (type === 'thinking' && !signatureMatches(String(block.thinking ?? ''), block.signature)) return invalid(`${path}: Invalid \`signature\` in \`thinking\` block`);
    } else if (type === 'image' || type === 'document' || type === 'tool_use' || type === 'tool_result' || type === 'thinking' || type === 'redacted_thinking') {
      return invalid(`${path}.type: a \`${type}\` block is not allowed in an \`${role}\` message`);
    }
    // Any other block (server tool results, search results, ...) is accepted and not modelled.
  }
  if (role === 'user') {
    turn.messages.push(...results);
    if (parts.length) turn.messages.push({ role: 'user', content: parts });
  } else {
    const text = parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    turn.messages.push({ role: 'assistant', content: text || (toolCalls.length ? null : text), ...(toolCalls.length ? { toolCalls } : {}) });
  }
  return turn;
}

/** tool_use answered by tool_result in the very next message; no tool_result without its tool_use. */
function checkToolPairs(turns: Turn[]): SimError | undefined {
  // A result without its use is named first: it is the message that is wrong, not the one before it.
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i]!;
    if (turn.role === 'user' && turn.toolResults.length) {
      const previous = i > 0 && turns[i - 1]!.role === 'assistant' ? new Set(turns[i - 1]!.toolUseIds) : new Set<string>();
      const stray = turn.toolResults.find((r) => !previous.has(r.id));
      if (stray) return invalid(`messages.${i}.content.${stray.j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`);
    }
  }
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i]!;
    if (turn.role === 'assistant' && turn.toolUseIds.length && i < turns.length - 1) {
      const next = turns[i + 1]!;
      const answered = new Set(next.role === 'user' ? next.toolResults.map((r) => r.id) : []);
      const missing = turn.toolUseIds.filter((id) => !answered.has(id));
      if (missing.length) return invalid(`messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`);
    }
  }
  return undefined;
}

function toolsOf(raw: unknown): { tools: AnswerTool[]; defined: boolean } | SimError {
  if (raw === undefined || raw === null) return { tools: [], defined: false };
  if (!Array.isArray(raw)) return invalid('tools: Input should be a valid list');
  const tools: AnswerTool[] = [];
  for (let i = 0; i < raw.length; i++) {
    const tool: any = raw[i];
    if (isObject(tool) && tool.type !== undefined && tool.type !== null && tool.type !== 'custom') continue; // server tools
    if (typeof tool?.name !== 'string' || !TOOL_NAME.test(tool.name)) return invalid(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
    if (!isObject(tool.input_schema)) return invalid(`tools.${i}.custom.input_schema: Field required`);
    tools.push({ name: tool.name, description: tool.description, parameters: tool.input_schema });
  }
  return { tools, defined: raw.length > 0 };
}

function toolChoiceOf(raw: unknown, tools: AnswerTool[], defined: boolean): { choice?: ToolChoice; parallel?: boolean } | SimError {
  if (raw === undefined || raw === null) return {};
  if (!isObject(raw)) return invalid('tool_choice: Input should be a valid dictionary or object to extract fields from');
  if (!defined && raw.type !== 'none') return invalid('tool_choice: tool_choice may only be specified while providing tools.');
  const parallel = raw.disable_parallel_tool_use === true ? { parallel: false } : {};
  switch (raw.type) {
    case 'auto':
      return { choice: 'auto', ...parallel };
    case 'any':
      return { choice: 'required', ...parallel };
    case 'none':
      return { choice: 'none' };
    case 'tool':
      if (typeof raw.name !== 'string' || !tools.some((t) => t.name === raw.name)) return invalid(`tool_choice.tool.name: Tool '${String(raw.name)}' not found in tools`);
      return { choice: { name: raw.name }, ...parallel };
    default:
      return invalid(`tool_choice: Input tag '${String(raw.type)}' found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'`);
  }
}

/** An Anthropic Messages body in the common shape, or the 400 the API answers it with. */
export function parseAnthropicMessages(raw: string, headers: IncomingHttpHeaders): SimRequest | SimError {
  const version = String(headers['anthropic-version'] ?? '');
  if (!version) return invalid('anthropic-version: header is required');
  let json: any;
  try {
    json = JSON.parse(raw);
  } catch {
    return invalid('The request body is not valid JSON.');
  }
  if (!isObject(json)) return invalid('The request body must be a JSON object.');
  for (const field of ['model', 'max_tokens', 'messages']) {
    if (json[field] === undefined || json[field] === null) return invalid(`${field}: Field required`);
  }
  if (typeof json.model !== 'string' || json.model === '') return invalid('model: Input should be a valid string');
  if (!Number.isInteger(json.max_tokens) || json.max_tokens < 1) return invalid('max_tokens: Input should be greater than or equal to 1');
  if (!Array.isArray(json.messages) || json.messages.length === 0) return invalid('messages: at least one message is required');
  if (json.messages.some((m: any) => m?.role === 'system')) {
    return invalid('messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.');
  }
  if (version >= '2026-10-21') {
    const removed = REMOVED_IN_2026.find((name) => json[name] !== undefined);
    if (removed) return invalid(`${removed}: Extra inputs are not permitted in API version ${version}`);
  }

  const toolList = toolsOf(json.tools);
  if ('kind' in toolList) return toolList;
  const { tools, defined } = toolList;
  const choice = toolChoiceOf(json.tool_choice, tools, defined);
  if ('kind' in choice) return choice;
  const thinkingType = isObject(json.thinking) ? json.thinking.type : undefined;
  const thinkingOn = thinkingType === 'enabled' || thinkingType === 'adaptive';
  if (thinkingOn && (choice.choice === 'required' || typeof choice.choice === 'object')) return invalid('Thinking may not be enabled when tool_choice forces tool use.');

  const turns: Turn[] = [];
  const seenIds = new Set<string>();
  for (let i = 0; i < json.messages.length; i++) {
    const turn = turnOf(json.messages[i], i, i === json.messages.length - 1, seenIds);
    if ('kind' in turn) return turn;
    turns.push(turn);
  }
  if (!defined && turns.some((t) => t.toolUseIds.length || t.toolResults.length)) return invalid('Requests which include `tool_use` or `tool_result` blocks must define tools.');
  const pairs = checkToolPairs(turns);
  if (pairs) return pairs;
  const lastTurn = turns.at(-1)!;
  if (thinkingOn && lastTurn.role === 'user' && lastTurn.toolResults.length && turns.length >= 2) {
    const i = turns.length - 2;
    const first = turns[i]!.firstBlock;
    if (first !== 'thinking' && first !== 'redacted_thinking') {
      return invalid(`messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`.`);
    }
  }

  const format = isObject(json.output_config) ? json.output_config.format : undefined;
  if (format !== undefined && format !== null && !(isObject(format) && format.type === 'json_schema')) return invalid("output_config.format.type: Input should be 'json_schema'");
  const effort = isObject(json.output_config) && typeof json.output_config.effort === 'string' ? json.output_config.effort : 'high';
  const systemText = textOf(json.system);
  const messages = turns.flatMap((t) => t.messages);
  const cachePoints = anthropicCachePoints(json, turns.map((t) => t.messages.length), systemText !== '');
  // The API's 400 as users report it (the prompt-caching guide: at most 4 breakpoints, the top-level one included).
  if (cachePoints.length > 4) return invalid(`A maximum of 4 blocks with cache_control may be provided. Found ${cachePoints.length}.`);
  return {
    model: json.model,
    messages: systemText ? [{ role: 'system', content: systemText }, ...messages] : messages,
    maxTokens: json.max_tokens,
    stream: json.stream === true,
    includeUsage: false,
    ...(tools.length ? { tools } : {}),
    ...(choice.choice ? { toolChoice: choice.choice } : {}),
    ...(choice.parallel === false ? { parallelToolCalls: false } : {}),
    ...(isObject(format) ? { responseFormat: { type: 'json_schema' as const, schema: isObject(format.schema) ? format.schema : {} } } : {}),
    ...(thinkingOn ? { reasoning: { effort }, thinking: { display: json.thinking.display === 'omitted' ? 'omitted' as const : 'summarized' as const } } : {}),
    ...(cachePoints.length ? { cachePoints } : {}),
  };
}
