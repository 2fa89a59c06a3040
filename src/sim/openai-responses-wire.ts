import { approxTokens, toolCallId } from '../../providers/shared/answers/index.js';
import { invalid, parseOpenAIChat } from './openai-request.js';
import { signatureMatches, thinkingSignature, thinkingText } from './thinking.js';
import { openAIWire } from './openai-wire.js';
import { randomChars } from './random.js';
import type { SimAnswer, SimError, SimRequest } from './sim-request.js';
import { sseFrame, type StreamChunk, type Wire } from './wire.js';

// OpenAI's Responses API (`POST /v1/responses`), shapes from the openai SDK's types and
// ../shared/reference/provider-wire-formats-wave2.md §1.2 and §2.3. Keys, headers and errors are
// Chat Completions' (the same API, the same envelope); only bodies and stream events differ.

const isObject = (x: unknown): x is Record<string, any> => typeof x === 'object' && x !== null && !Array.isArray(x);

function chatPart(part: any): unknown {
  if (part?.type === 'input_text' || part?.type === 'output_text') return { type: 'text', text: part.text };
  if (part?.type === 'input_image') return { type: 'image_url', image_url: { url: part.image_url, ...(part.detail && part.detail !== 'original' ? { detail: part.detail } : {}) } };
  if (part?.type === 'input_file') return { type: 'file', file: { file_data: part.file_data, filename: part.filename } };
  return part;
}

/** The Responses input as Chat Completions messages, so one parser (and its 400s) serves both. */
function chatMessages(json: Record<string, any>): unknown[] {
  const out: any[] = [];
  if (typeof json.instructions === 'string' && json.instructions) out.push({ role: 'system', content: json.instructions });
  const input = typeof json.input === 'string' ? [{ role: 'user', content: json.input }] : Array.isArray(json.input) ? json.input : [];
  for (const item of input) {
    if (item?.type === 'function_call') {
      const call = { id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } };
      const last = out.at(-1);
      if (last?.role === 'assistant' && !last.replayedText) (last.tool_calls ??= []).push(call);
      else out.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (item?.type === 'function_call_output') {
      out.push({ role: 'tool', tool_call_id: item.call_id, content: typeof item.output === 'string' ? item.output : JSON.stringify(item.output) });
    } else if (item?.type === 'reasoning') {
      continue; // replayed reasoning shapes nothing the simulator answers (checked in refusal())
    } else if (isObject(item) && typeof item.role === 'string' && (item.type === undefined || item.type === 'message')) {
      const content = typeof item.content === 'string' ? item.content : Array.isArray(item.content) ? item.content.map(chatPart) : item.content;
      out.push({ role: item.role, content: item.role === 'assistant' && Array.isArray(content) ? content.map((p: any) => p.text ?? '').join('') : content });
    }
  }
  return out;
}

/** Input item types the API takes (openai SDK `ResponseInputItem`); the simulator models the first four. */
const ITEM_TYPES = ['message', 'function_call', 'function_call_output', 'reasoning', 'item_reference', 'file_search_call', 'computer_call', 'computer_call_output',
  'web_search_call', 'image_generation_call', 'code_interpreter_call', 'local_shell_call', 'local_shell_call_output', 'mcp_list_tools', 'mcp_approval_request',
  'mcp_approval_response', 'mcp_call', 'custom_tool_call', 'custom_tool_call_output', 'compaction'];

/**
 * What the API refuses in the input, as it does: an item of a type it does not know (another API's
 * block, e.g. Anthropic `thinking`), and a reasoning item whose `encrypted_content` it did not
 * encrypt (another organisation's or made up; real text and code as users report them).
 */
function refusal(input: unknown): SimError | undefined {
  if (!Array.isArray(input)) return undefined;
  for (let i = 0; i < input.length; i++) {
    const item = input[i];
    if (!isObject(item) || item.type === undefined) continue;
    if (!ITEM_TYPES.includes(item.type)) {
      return invalid(`Invalid value: '${String(item.type)}'. Supported values are: ${ITEM_TYPES.map((t) => `'${t}'`).join(', ')}.`, `input[${i}].type`, 'invalid_value');
    }
    if (item.type === 'reasoning' && item.encrypted_content !== undefined && !signatureMatches('', item.encrypted_content, 'openai')) {
      return invalid(`The encrypted content for item ${String(item.id)} could not be verified.`, null, 'invalid_encrypted_content');
    }
  }
  return undefined;
}

/** A Responses body as the common request, through the Chat Completions parser. */
export function parseOpenAIResponses(raw: string): SimRequest | SimError {
  let json: any;
  try {
    json = JSON.parse(raw);
  } catch {
    return parseOpenAIChat(raw);
  }
  if (!isObject(json)) return parseOpenAIChat(raw);
  const refused = refusal(json.input);
  if (refused) return refused;
  const format = json.text?.format;
  const chat = {
    model: json.model,
    messages: chatMessages(json),
    ...(json.max_output_tokens !== undefined ? { max_completion_tokens: json.max_output_tokens } : {}),
    ...(json.stream === true ? { stream: true } : {}),
    ...(Array.isArray(json.tools) ? { tools: json.tools.map((t: any) => (t?.type === 'function' ? { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters ?? undefined } } : t)) } : {}),
    ...(json.tool_choice !== undefined ? { tool_choice: isObject(json.tool_choice) && json.tool_choice.type === 'function' ? { type: 'function', function: { name: json.tool_choice.name } } : json.tool_choice } : {}),
    ...(typeof json.parallel_tool_calls === 'boolean' ? { parallel_tool_calls: json.parallel_tool_calls } : {}),
    ...(isObject(format) && format.type === 'json_schema' ? { response_format: { type: 'json_schema', json_schema: { name: format.name, schema: format.schema, strict: format.strict } } } : {}),
    ...(isObject(format) && format.type === 'json_object' ? { response_format: { type: 'json_object' } } : {}),
    ...(typeof json.reasoning?.effort === 'string' ? { reasoning_effort: json.reasoning.effort } : {}),
  };
  const parsed = parseOpenAIChat(JSON.stringify(chat));
  if (!('kind' in parsed) && parsed.reasoning && Array.isArray(json.include) && json.include.includes('reasoning.encrypted_content')) parsed.encryptedReasoning = true;
  return parsed;
}

/** The provider's answer id as a Response id (the simulator draws `chatcmpl-` ids for every OpenAI answer). */
const responseId = (id: string) => (id.startsWith('resp_') ? id : `resp_${id.replace(/^chatcmpl-/, '')}`);

function usage(answer: SimAnswer) {
  return {
    input_tokens: answer.inputTokens, input_tokens_details: { cached_tokens: answer.cachedInputTokens, cache_write_tokens: answer.cacheWriteTokens },
    output_tokens: answer.outputTokens, output_tokens_details: { reasoning_tokens: answer.reasoningTokens }, total_tokens: answer.inputTokens + answer.outputTokens,
  };
}

const messageId = (id: string) => `msg_${id.slice(5)}`;
const callItem = (call: SimAnswer['toolCalls'][number], i: number, id: string, args: string, status: string) => ({
  type: 'function_call', id: `fc_${id.slice(5, 30)}${i}`, call_id: toolCallId(call.key, 'openai'), name: call.name, arguments: args, status,
});

/** The reasoning item a reasoning request's output opens with: no summary, its content encrypted (a simulator signature of the thinking). */
const reasoningItem = (request: SimRequest, id: string) => ({
  type: 'reasoning', id: `rs_${id.slice(5)}`, summary: [], encrypted_content: thinkingSignature(thinkingText(request.messages), 'openai'),
});

function output(request: SimRequest, answer: SimAnswer, id: string): unknown[] {
  const items: unknown[] = request.encryptedReasoning ? [reasoningItem(request, id)] : [];
  if (answer.text) items.push({ type: 'message', id: messageId(id), status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: answer.text, annotations: [], logprobs: [] }] });
  answer.toolCalls.forEach((call, i) => items.push(callItem(call, i, id, call.argumentsJson, 'completed')));
  return items;
}

function responseObject(request: SimRequest, answer: SimAnswer | undefined, id: string, createdS: number, done: boolean) {
  const incomplete = done && answer?.finish === 'length';
  return {
    id, object: 'response', created_at: createdS, status: !done ? 'in_progress' : incomplete ? 'incomplete' : 'completed',
    error: null, incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null, model: request.model,
    output: done && answer ? output(request, answer, id) : [], parallel_tool_calls: request.parallelToolCalls ?? true, store: false,
    usage: done && answer ? usage(answer) : null,
  };
}

/** OpenAI Responses: Chat Completions' keys, headers and errors; Response objects and `response.*` events. */
export const openAIResponsesWire: Wire = {
  ...openAIWire,
  parse: (raw) => parseOpenAIResponses(raw),
  completion(request, answer, ids) {
    return responseObject(request, answer, responseId(ids.id), ids.createdS, true);
  },
  stream(request, answer, ids) {
    let seq = 0;
    const ev = (type: string, data: Record<string, unknown>) => sseFrame({ type, sequence_number: seq++, ...data }, type);
    const id = responseId(ids.id);
    const lead = request.encryptedReasoning ? 1 : 0;
    const textIndex = answer.text ? lead : -1;
    const toolIndex = (i: number) => i + lead + (answer.text ? 1 : 0);
    const head = [ev('response.created', { response: responseObject(request, undefined, id, ids.createdS, false) })];
    if (lead) {
      const reasoning = reasoningItem(request, id);
      head.push(ev('response.output_item.added', { output_index: 0, item: Object.assign({}, reasoning, { encrypted_content: null }) }));
      head.push(ev('response.output_item.done', { output_index: 0, item: reasoning }));
    }
    if (answer.text) {
      head.push(ev('response.output_item.added', { output_index: lead, item: { type: 'message', id: messageId(id), status: 'in_progress', role: 'assistant', content: [] } }));
      head.push(ev('response.content_part.added', { item_id: messageId(id), output_index: lead, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }));
    }
    const chunks: StreamChunk[] = answer.chunks.map((c) => {
      if (c.type === 'text') return { data: ev('response.output_text.delta', { item_id: messageId(id), output_index: textIndex, content_index: 0, delta: c.text, logprobs: [] }), tokens: approxTokens(c.text) };
      if (c.type === 'tool_start') return { data: ev('response.output_item.added', { output_index: toolIndex(c.index), item: callItem(c.call, c.index, id, '', 'in_progress') }), tokens: 1 };
      return { data: ev('response.function_call_arguments.delta', { item_id: `fc_${id.slice(5, 30)}${c.index}`, output_index: toolIndex(c.index), delta: c.fragment }), tokens: approxTokens(c.fragment) };
    });
    const items = output(request, answer, id);
    const tail = items.slice(lead).map((item, i) => ev('response.output_item.done', { output_index: i + lead, item }));
    tail.push(ev(answer.finish === 'length' ? 'response.incomplete' : 'response.completed', { response: responseObject(request, answer, id, ids.createdS, true) }));
    return { head, chunks, tail, error: ev('error', { code: 'server_error', message: 'The server had an error while processing your request. Sorry about that!', param: null }) };
  },
  ids(random) {
    const { requestId } = openAIWire.ids(random);
    return { requestId, answerId: `resp_${randomChars(random, 48)}` };
  },
};
