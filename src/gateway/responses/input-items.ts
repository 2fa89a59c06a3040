import { RouterError } from '../../errors.js';
import type { AssistantMessage, ContentPart, Message, ToolCall } from '../../types.js';
import { OPAQUE_ITEMS, opaqueCall, Turns } from './turn-items.js';
import { invalid, isObject, typeName, unsupported } from './wire-errors.js';

/** The Responses `input` as router messages, with the wire path each message came from (for errors). */
export interface ConvertedInput {
  messages: Message[];
  /** `paths[i]` is where `messages[i]` came from: `input[3]`, or `input` for a text input. */
  paths: string[];
}

/** Finds an item an `item_reference` names (looked up beforehand in the stored responses). */
export type ItemLookup = (id: string) => Record<string, unknown> | undefined;

const KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  message: new Set(['type', 'role', 'content', 'id', 'status', 'phase']),
  function_call: new Set(['type', 'call_id', 'name', 'arguments', 'id', 'status', 'caller']),
  function_call_output: new Set(['type', 'call_id', 'output', 'id', 'status', 'caller']),
  custom_tool_call_output: new Set(['type', 'call_id', 'output', 'id']),
  item_reference: new Set(['type', 'id']),
  input_text: new Set(['type', 'text']),
  input_image: new Set(['type', 'image_url', 'detail', 'file_id']),
  input_file: new Set(['type', 'file_data', 'filename', 'file_id', 'detail']),
  output_text: new Set(['type', 'text', 'annotations', 'logprobs']),
  refusal: new Set(['type', 'refusal']),
};

const DATA_URL = /^data:([^;,]+)(?:;[^;,]+)*;base64,(.*)$/s;
const ROLES = new Set(['user', 'assistant', 'system', 'developer']);

/** Refuses a key outside the ones the gateway maps or knows to change nothing, naming it. */
function onlyKeys(value: Record<string, unknown>, kind: string, path: string): void {
  const known = KEYS[kind]!;
  for (const key of Object.keys(value)) {
    if (!known.has(key) && value[key] !== undefined && value[key] !== null) throw unsupported(`${path}.${key}`, `a ${kind} has no Switchyard equivalent for ${key}`);
  }
}

function textOf(value: unknown, path: string): string {
  if (typeof value !== 'string') throw invalid(path, `expected a string, got ${typeName(value)}`, 'invalid_type');
  return value;
}

function userPart(part: unknown, path: string): ContentPart {
  if (!isObject(part)) throw invalid(path, 'expected a content part object', 'invalid_type');
  switch (part.type) {
    case 'input_text':
      onlyKeys(part, 'input_text', path);
      return { type: 'text', text: textOf(part.text, `${path}.text`) };
    case 'input_image': {
      onlyKeys(part, 'input_image', path);
      if (part.file_id !== undefined && part.file_id !== null) throw unsupported(`${path}.file_id`, 'uploaded OpenAI files mean nothing to other providers; send image_url');
      const url = textOf(part.image_url, `${path}.image_url`);
      const detail = part.detail === 'low' || part.detail === 'high' || part.detail === 'auto' ? part.detail : undefined;
      return { type: 'image', url, ...(detail ? { detail } : {}) };
    }
    case 'input_file': {
      onlyKeys(part, 'input_file', path);
      if (part.file_id !== undefined && part.file_id !== null) throw unsupported(`${path}.file_id`, 'uploaded OpenAI files mean nothing to other providers; send file_data');
      const data = textOf(part.file_data, `${path}.file_data`);
      const inline = DATA_URL.exec(data);
      return {
        type: 'file', data: inline ? inline[2]! : data, mediaType: inline ? inline[1]!.toLowerCase() : 'application/pdf',
        ...(typeof part.filename === 'string' ? { filename: part.filename } : {}),
      };
    }
    default:
      throw unsupported(`${path}.type`, `${JSON.stringify(part.type)} content has no Switchyard equivalent (input_text, input_image and input_file do)`);
  }
}

/** Text-only content (system, developer and assistant turns, tool outputs): a string, or text parts joined. */
function plainText(content: unknown, path: string, parts: ReadonlySet<string>): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(path, `expected a string or an array of content parts, got ${typeName(content)}`, 'invalid_type');
  return content.map((part, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(part) || typeof part.type !== 'string' || !parts.has(part.type)) {
      throw unsupported(`${at}.type`, `only ${[...parts].join(' and ')} parts are allowed here`);
    }
    onlyKeys(part, part.type, at);
    return textOf(part.type === 'refusal' ? part.refusal : part.text, `${at}.${part.type === 'refusal' ? 'refusal' : 'text'}`);
  }).join('');
}

function messageOf(item: Record<string, unknown>, path: string): Message {
  onlyKeys(item, 'message', path);
  const role = item.role;
  if (typeof role !== 'string' || !ROLES.has(role)) throw invalid(`${path}.role`, `expected user, assistant, system or developer, got ${typeName(role)}`);
  const content = item.content;
  if (role === 'user') {
    if (typeof content === 'string') return { role, content };
    if (!Array.isArray(content)) throw invalid(`${path}.content`, `expected a string or an array of content parts, got ${typeName(content)}`, 'invalid_type');
    return { role, content: content.map((p, i) => userPart(p, `${path}.content[${i}]`)) };
  }
  if (role === 'assistant') return { role, content: plainText(content, `${path}.content`, new Set(['output_text', 'refusal', 'input_text'])) };
  return { role: role as 'system' | 'developer', content: plainText(content, `${path}.content`, new Set(['input_text'])) };
}

function toolCallOf(item: Record<string, unknown>, path: string): ToolCall {
  onlyKeys(item, 'function_call', path);
  const id = textOf(item.call_id, `${path}.call_id`);
  const name = textOf(item.name, `${path}.name`);
  const raw = textOf(item.arguments, `${path}.arguments`);
  let args: unknown = {};
  if (raw.trim() !== '') {
    try {
      args = JSON.parse(raw);
    } catch {
      throw invalid(`${path}.arguments`, 'not valid JSON');
    }
  }
  if (!isObject(args)) throw invalid(`${path}.arguments`, 'expected a JSON object');
  return { id, name, arguments: args };
}

function toolOutputOf(item: Record<string, unknown>, path: string): Message {
  onlyKeys(item, 'function_call_output', path);
  const toolCallId = textOf(item.call_id, `${path}.call_id`);
  return { role: 'tool', toolCallId, content: plainText(item.output, `${path}.output`, new Set(['input_text', 'output_text'])) };
}

/** The ids of the `item_reference` items of an input, to look up before converting it. */
export function referencedIds(input: unknown): string[] {
  if (!Array.isArray(input)) return [];
  return input.filter((i) => isObject(i) && i.type === 'item_reference' && typeof i.id === 'string').map((i) => (i as { id: string }).id);
}

/**
 * The Responses `input` (a string, or items) as router messages: messages by role, a `function_call`
 * item joins the assistant turn before it (or starts one), a `function_call_output` is a tool
 * message, an `item_reference` is the stored item it names. A `reasoning`, `custom_tool_call` or
 * `local_shell_call` item joins (or starts) an assistant turn too, which then keeps its items for
 * the Responses API to replay verbatim (turn-items.ts); the latter two are tool calls elsewhere,
 * and a `custom_tool_call_output` their result. Anything else is refused, naming its path.
 */
export function inputMessages(input: unknown, lookup: ItemLookup): ConvertedInput {
  const out: ConvertedInput = { messages: [], paths: [] };
  if (input === undefined || input === null) return out;
  if (typeof input === 'string') return { messages: [{ role: 'user', content: input }], paths: ['input'] };
  if (!Array.isArray(input)) throw invalid('input', `expected a string or an array of input items, got ${typeName(input)}`, 'invalid_type');
  const push = (m: Message, path: string) => {
    out.messages.push(m);
    out.paths.push(path);
  };
  const turns = new Turns(out.messages);
  /** The assistant turn an item joins (or the one it starts), which keeps the item. */
  const turnOf = (kind: 'call' | 'reasoning' | 'message', raw: unknown, path: string, start: () => AssistantMessage): AssistantMessage => {
    let turn = turns.open(kind);
    if (!turn) {
      turn = start();
      push(turn, path);
    }
    turns.add(turn, raw);
    return turn;
  };
  input.forEach((raw, i) => {
    const path = `input[${i}]`;
    if (!isObject(raw)) throw invalid(path, `expected an input item object, got ${typeName(raw)}`, 'invalid_type');
    let item = raw;
    if (item.type === 'item_reference') {
      onlyKeys(item, 'item_reference', path);
      const id = textOf(item.id, `${path}.id`);
      const found = lookup(id);
      if (!found) throw new RouterError('invalid_request', `Item with id '${id}' not found: it belongs to no response this key stored (or it expired)`, { code: 'item_not_found', param: `${path}.id` });
      item = found;
    }
    const type = item.type ?? (typeof item.role === 'string' ? 'message' : undefined);
    if (type === 'message') {
      const message = messageOf(item, path);
      if (message.role !== 'assistant') return push(message, path);
      const turn = turnOf('message', item, path, () => message);
      if (turn !== message) turn.content = message.content;
      return;
    }
    if (type === 'function_call' || (typeof type === 'string' && OPAQUE_ITEMS.has(type))) {
      const call = type === 'function_call' ? toolCallOf(item, path) : opaqueCall(item, path);
      const turn = turnOf(call ? 'call' : 'reasoning', item, path, () => ({ role: 'assistant', content: call ? null : '' }));
      if (call) turn.toolCalls = [...(turn.toolCalls ?? []), call];
      return;
    }
    if (type === 'function_call_output') return push(toolOutputOf(item, path), path);
    if (type === 'custom_tool_call_output') {
      onlyKeys(item, 'custom_tool_call_output', path);
      return push({ role: 'tool', toolCallId: textOf(item.call_id, `${path}.call_id`), content: plainText(item.output, `${path}.output`, new Set(['input_text', 'output_text'])) }, path);
    }
    throw unsupported(`${path}.type`, `${JSON.stringify(type)} items have no Switchyard equivalent (message, function_call, function_call_output, reasoning, custom_tool_call, custom_tool_call_output, local_shell_call and item_reference do)`);
  });
  turns.finish();
  return out;
}
