import type { AnswerTool } from '../../providers/shared/answers/index.js';
import type { ContentPart, Message, ToolCall, ToolChoice } from '../types.js';
import { decodeBase64, IMAGE_MEDIA_TYPES, isHttpUrl, parseDataUrl, sniffImage } from './data-url.js';
import { textOf, type SimError, type SimRequest } from './sim-request.js';

// Messages follow ../shared/reference/provider-wire-formats.md §1.2 and -wave2.md §1, §3, §4. Those
// the reference quotes are the real ones; the rest are marked synthetic in src/sim/README-additions.md.
export const BAD_JSON = "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)";
const IMAGE_EXAMPLE = "(e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU=')";
const PDF_EXAMPLE = "(e.g. 'data:application/pdf;base64,SGVsbG8sIFdvcmxkIQ==')";
const UNSUPPORTED_IMAGE = "You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].";
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_TOOL_CALL_ID = 40;

export function invalid(message: string, param: string | null = null, code: string | null = null): SimError {
  return { kind: 'invalid_request', message, param, code };
}

const isObject = (x: unknown): x is Record<string, any> => typeof x === 'object' && x !== null && !Array.isArray(x);

function imagePart(part: any, path: string): ContentPart | SimError {
  const url = part.image_url?.url;
  const where = `${path}.image_url.url`;
  if (typeof url !== 'string') return invalid(`Missing required parameter: '${where}'.`, where, 'missing_required_parameter');
  const detail = part.image_url.detail === 'low' || part.image_url.detail === 'high' || part.image_url.detail === 'auto' ? part.image_url.detail : undefined;
  if (isHttpUrl(url)) return { type: 'image', url, ...(detail ? { detail } : {}) };
  const bad = (what: string) => invalid(`Invalid image URL: '${where}'. Expected a base64-encoded data URL with an image MIME type ${IMAGE_EXAMPLE}, but got ${what}.`, where, 'invalid_value');
  if (!url.startsWith('data:')) return bad("a value without the 'data:' prefix");
  const data = parseDataUrl(url);
  if (!data || !(IMAGE_MEDIA_TYPES as readonly string[]).includes(data.mediaType)) return bad('an unsupported MIME type');
  const bytes = decodeBase64(data.base64);
  if (!bytes) return bad('an invalid base64-encoded value');
  if (bytes.length === 0) return bad('empty base64-encoded bytes');
  if (!sniffImage(bytes)) return invalid(UNSUPPORTED_IMAGE, null, 'invalid_image_format');
  return { type: 'image', url, ...(detail ? { detail } : {}) };
}

function filePart(part: any, path: string): ContentPart | SimError {
  const file = isObject(part.file) ? part.file : {};
  const filename = typeof file.filename === 'string' ? file.filename : undefined;
  if (typeof file.file_id === 'string' && file.file_data === undefined) return { type: 'file', data: '', mediaType: 'application/pdf', filename: filename ?? file.file_id };
  const where = `${path}.file.file_data`;
  if (typeof file.file_data !== 'string') return invalid(`Missing required parameter: '${where}'.`, where, 'missing_required_parameter');
  const bad = (what: string) => invalid(`Invalid file data: '${where}'. Expected a base64-encoded data URL with an application/pdf MIME type ${PDF_EXAMPLE}, but got ${what}.`, where, 'invalid_value');
  if (!file.file_data.startsWith('data:')) return bad("a value without the 'data:' prefix");
  const data = parseDataUrl(file.file_data);
  if (!data || data.mediaType !== 'application/pdf') return bad('an unsupported MIME type');
  const bytes = decodeBase64(data.base64);
  if (!bytes) return bad('an invalid base64-encoded value');
  if (bytes.length === 0) return bad('empty base64-encoded bytes');
  return { type: 'file', data: data.base64, mediaType: data.mediaType, ...(filename ? { filename } : {}) };
}

function userContent(content: unknown, i: number): string | ContentPart[] | SimError {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return invalid(`Invalid type for 'messages[${i}].content': expected one of a string or array of objects, but got ${content === null ? 'null' : typeof content} instead.`, `messages[${i}].content`, 'invalid_type');
  const parts: ContentPart[] = [];
  for (let j = 0; j < content.length; j++) {
    const part = content[j];
    const path = `messages[${i}].content[${j}]`;
    const type = isObject(part) ? part.type : undefined;
    let parsed: ContentPart | SimError | undefined;
    if (type === 'text') parsed = { type: 'text', text: typeof part.text === 'string' ? part.text : '' };
    else if (type === 'image_url') parsed = imagePart(part, path);
    else if (type === 'file') parsed = filePart(part, path);
    else if (type === 'input_audio') parsed = undefined; // accepted, not modelled
    else return invalid(`Invalid value: '${String(type)}'. Supported values are: 'text', 'image_url', 'input_audio', 'refusal', 'audio', and 'file'.`, `${path}.type`, 'invalid_value');
    if (parsed && 'kind' in parsed) return parsed;
    if (parsed) parts.push(parsed);
  }
  return parts;
}

function toolCallsOf(m: any, i: number): ToolCall[] | SimError {
  if (m.tool_calls === undefined || m.tool_calls === null) return [];
  if (!Array.isArray(m.tool_calls)) return invalid(`Invalid type for 'messages[${i}].tool_calls': expected an array of objects.`, `messages[${i}].tool_calls`, 'invalid_type');
  const calls: ToolCall[] = [];
  for (let j = 0; j < m.tool_calls.length; j++) {
    const call = m.tool_calls[j];
    const id = call?.id;
    if (typeof id !== 'string' || !id) return invalid(`Missing required parameter: 'messages[${i}].tool_calls[${j}].id'.`, `messages[${i}].tool_calls[${j}].id`, 'missing_required_parameter');
    if (id.length > MAX_TOOL_CALL_ID) {
      return invalid(`Invalid 'messages[${i}].tool_calls[${j}].id': string too long. Expected a string with maximum length ${MAX_TOOL_CALL_ID}, but got a string with length ${id.length} instead.`, `messages[${i}].tool_calls[${j}].id`, 'string_above_max_length');
    }
    let args: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(call?.function?.arguments ?? '{}');
      if (isObject(parsed)) args = parsed;
    } catch {
      // The API takes whatever string the model once wrote; only its size matters here.
    }
    calls.push({ id, name: String(call?.function?.name ?? ''), arguments: args });
  }
  return calls;
}

function messagesOf(raw: unknown[]): Message[] | SimError {
  const messages: Message[] = [];
  for (let i = 0; i < raw.length; i++) {
    const m: any = raw[i];
    const role = m?.role;
    if (role === 'user') {
      const content = userContent(m.content, i);
      if (typeof content === 'object' && 'kind' in content) return content;
      messages.push({ role: 'user', content });
    } else if (role === 'assistant') {
      const toolCalls = toolCallsOf(m, i);
      if ('kind' in toolCalls) return toolCalls;
      const text = textOf(m.content);
      messages.push({ role: 'assistant', content: text || (toolCalls.length ? null : text), ...(toolCalls.length ? { toolCalls } : {}) });
    } else if (role === 'tool') {
      if (typeof m.tool_call_id !== 'string') return invalid(`Missing required parameter: 'messages[${i}].tool_call_id'.`, `messages[${i}].tool_call_id`, 'missing_required_parameter');
      messages.push({ role: 'tool', toolCallId: m.tool_call_id, content: textOf(m.content) });
    } else if (role === 'system' || role === 'developer') {
      messages.push({ role, content: textOf(m.content) });
    } else {
      return invalid(`Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`, `messages[${i}].role`, 'invalid_value');
    }
  }
  return messages;
}

/** Every assistant `tool_calls` answered by `tool` messages right after it, and no `tool` message without one. */
function checkToolPairs(messages: Message[]): SimError | undefined {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') {
      // Reached only by a tool message that no assistant tool_calls run covers.
      return invalid("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${i}].role`);
    }
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    const ids = new Set(m.toolCalls.map((c) => c.id));
    const open = new Set(ids);
    let j = i + 1;
    for (; j < messages.length && messages[j]!.role === 'tool'; j++) {
      const id = (messages[j] as { toolCallId: string }).toolCallId;
      if (!ids.has(id)) return invalid("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${j}].role`);
      open.delete(id);
    }
    if (open.size > 0) {
      return invalid(`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`, `messages.[${i + 1}].role`);
    }
    i = j - 1;
  }
  return undefined;
}

function toolsOf(raw: unknown): AnswerTool[] | SimError | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) return invalid("Invalid type for 'tools': expected an array of objects.", 'tools', 'invalid_type');
  const tools: AnswerTool[] = [];
  for (let i = 0; i < raw.length; i++) {
    const tool: any = raw[i];
    if (tool?.type === 'custom') continue; // free-form tools: accepted, never called
    if (tool?.type !== 'function') return invalid(`Invalid value: '${String(tool?.type)}'. Supported values are: 'function' and 'custom'.`, `tools[${i}].type`, 'invalid_value');
    const name = tool.function?.name;
    if (typeof name !== 'string') return invalid(`Missing required parameter: 'tools[${i}].function.name'.`, `tools[${i}].function.name`, 'missing_required_parameter');
    if (!TOOL_NAME.test(name)) {
      return invalid(`Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `tools[${i}].function.name`, 'invalid_value');
    }
    tools.push({ name, description: tool.function.description, parameters: isObject(tool.function.parameters) ? tool.function.parameters : { type: 'object', properties: {} } });
  }
  return tools;
}

function toolChoiceOf(raw: unknown, tools: AnswerTool[] | undefined): ToolChoice | SimError | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!tools?.length) return invalid("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", 'tool_choice');
  if (raw === 'auto' || raw === 'none' || raw === 'required') return raw;
  if (isObject(raw) && raw.type === 'function' && typeof raw.function?.name === 'string') {
    const name: string = raw.function.name;
    if (!tools.some((t) => t.name === name)) return invalid(`Invalid value for 'tool_choice': function '${name}' not found in 'tools'.`, 'tool_choice', 'invalid_value');
    return { name };
  }
  if (isObject(raw) && raw.type === 'allowed_tools') return raw.allowed_tools?.mode === 'required' ? 'required' : 'auto';
  return invalid("Invalid value for 'tool_choice': expected one of 'none', 'auto', 'required', or an object naming a function.", 'tool_choice', 'invalid_value');
}

function responseFormatOf(raw: unknown, messages: Message[]): SimRequest['responseFormat'] | SimError {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) return invalid("Invalid type for 'response_format': expected an object.", 'response_format', 'invalid_type');
  if (raw.type === 'text') return undefined;
  if (raw.type === 'json_object') {
    const mentionsJson = messages.some((m) => (typeof m.content === 'string' ? m.content : textOf(m.content)).toLowerCase().includes('json'));
    if (!mentionsJson) return invalid("'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", 'messages');
    return { type: 'json' };
  }
  if (raw.type === 'json_schema') {
    const spec = raw.json_schema;
    if (!isObject(spec)) return invalid("Missing required parameter: 'response_format.json_schema'.", 'response_format.json_schema', 'missing_required_parameter');
    if (typeof spec.name !== 'string' || !spec.name) return invalid("Missing required parameter: 'response_format.json_schema.name'.", 'response_format.json_schema.name', 'missing_required_parameter');
    return { type: 'json_schema', name: spec.name, schema: isObject(spec.schema) ? spec.schema : {} };
  }
  return invalid(`Invalid value: '${String(raw.type)}'. Supported values are: 'text', 'json_object', and 'json_schema'.`, 'response_format.type', 'invalid_value');
}

/** An OpenAI Chat Completions body in the common shape, or the 400 the API answers it with. */
export function parseOpenAIChat(raw: string): SimRequest | SimError {
  let json: any;
  try {
    json = JSON.parse(raw);
  } catch {
    return invalid(BAD_JSON);
  }
  if (!isObject(json)) return invalid(BAD_JSON);
  if (typeof json.model !== 'string' || json.model === '') return invalid('you must provide a model parameter');
  if (json.messages === undefined) return invalid("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  if (!Array.isArray(json.messages)) return invalid(`Invalid type for 'messages': expected an array of objects, but got ${typeof json.messages} instead.`, 'messages', 'invalid_type');
  if (json.messages.length === 0) return invalid("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array');
  const maxName = json.max_completion_tokens !== undefined && json.max_completion_tokens !== null ? 'max_completion_tokens' : 'max_tokens';
  const maxTokens = json[maxName] ?? undefined;
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1)) {
    return invalid(`Invalid '${maxName}': integer below minimum value. Expected a value >= 1, but got ${JSON.stringify(maxTokens)} instead.`, maxName, 'integer_below_min_value');
  }
  const stream = json.stream === true;
  if (json.stream_options && !stream) return invalid("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
  const messages = messagesOf(json.messages);
  if ('kind' in messages) return messages;
  const pairs = checkToolPairs(messages);
  if (pairs) return pairs;
  const tools = toolsOf(json.tools);
  if (tools && 'kind' in tools) return tools;
  const toolChoice = toolChoiceOf(json.tool_choice, tools);
  if (toolChoice && typeof toolChoice === 'object' && 'kind' in toolChoice) return toolChoice;
  const responseFormat = responseFormatOf(json.response_format, messages);
  if (responseFormat && 'kind' in responseFormat) return responseFormat;
  const effort = typeof json.reasoning_effort === 'string' && json.reasoning_effort !== 'none' ? json.reasoning_effort : undefined;
  return {
    model: json.model,
    messages,
    maxTokens,
    stream,
    includeUsage: stream && json.stream_options?.include_usage === true,
    ...(tools?.length ? { tools } : {}),
    ...(toolChoice ? { toolChoice } : {}),
    ...(typeof json.parallel_tool_calls === 'boolean' ? { parallelToolCalls: json.parallel_tool_calls } : {}),
    ...(responseFormat ? { responseFormat } : {}),
    ...(effort ? { reasoning: { effort } } : {}),
  };
}
