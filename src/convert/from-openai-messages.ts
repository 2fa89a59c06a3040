import type { ContentPart, Message, ToolCall } from '../types.js';
import { invalidField, isRecord, onlyKnownKeys, unsupportedField } from './convert-error.js';
import { checkTypes, describe } from './wire-types.js';

/**
 * The keys each role may carry. `name` (a participant's name) is accepted on every role and
 * dropped: only OpenAI reads it, and LangChain's ToolMessage always sends the tool's name in it.
 */
const KNOWN: Readonly<Record<string, ReadonlySet<string>>> = {
  system: new Set(['role', 'content', 'name']),
  developer: new Set(['role', 'content', 'name']),
  user: new Set(['role', 'content', 'name']),
  // What `completion.choices[0].message` carries, so an SDK answer appended to the history converts.
  assistant: new Set(['role', 'content', 'name', 'tool_calls', 'refusal', 'annotations', 'audio', 'function_call']),
  tool: new Set(['role', 'content', 'tool_call_id', 'name']),
};

const DATA_URL = /^data:([^;,]+)(?:;[^;,]+)*;base64,(.*)$/s;

/** Text content: a string, or text parts joined (system, developer and tool messages take no other parts). */
function textOf(content: unknown, path: string): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) throw invalidField(path, `expected a string or an array of content parts, got ${describe(content)}`);
  return content.map((part, i) => {
    if (!isRecord(part)) throw invalidField(`${path}[${i}]`, 'expected a content part');
    if (part.type === 'text' && typeof part.text === 'string') return part.text;
    if (part.type === 'refusal' && typeof part.refusal === 'string') return part.refusal;
    throw unsupportedField(`${path}[${i}]`, `a ${String(part.type)} part is not allowed here`);
  }).join('');
}

function userPart(part: unknown, path: string): ContentPart {
  if (!isRecord(part)) throw invalidField(path, 'expected a content part');
  switch (part.type) {
    case 'text':
      if (typeof part.text !== 'string') throw invalidField(`${path}.text`, `expected a string, got ${describe(part.text)}`);
      return { type: 'text', text: part.text };
    case 'image_url': {
      const image = isRecord(part.image_url) ? part.image_url : {};
      if (typeof image.url !== 'string') throw invalidField(`${path}.image_url.url`, 'expected a URL');
      const detail = image.detail === 'auto' || image.detail === 'low' || image.detail === 'high' ? image.detail : undefined;
      return { type: 'image', url: image.url, ...(detail ? { detail } : {}) };
    }
    case 'file': {
      const file = isRecord(part.file) ? part.file : {};
      if (file.file_id !== undefined) throw unsupportedField(`${path}.file.file_id`, 'uploaded OpenAI files mean nothing to other providers; send file_data');
      if (typeof file.file_data !== 'string') throw invalidField(`${path}.file.file_data`, 'expected base64 data');
      const inline = DATA_URL.exec(file.file_data);
      return {
        type: 'file',
        data: inline ? inline[2]! : file.file_data,
        mediaType: inline ? inline[1]!.toLowerCase() : 'application/pdf',
        ...(typeof file.filename === 'string' ? { filename: file.filename } : {}),
      };
    }
    default:
      throw unsupportedField(path, `${String(part.type)} parts have no Switchyard equivalent`);
  }
}

function toolCallOf(call: unknown, path: string): ToolCall {
  if (!isRecord(call) || call.type !== 'function' || !isRecord(call.function)) throw unsupportedField(path, 'only function tool calls are supported');
  if (typeof call.id !== 'string') throw invalidField(`${path}.id`, `expected the call's id, got ${describe(call.id)}`);
  if (typeof call.function.name !== 'string') throw invalidField(`${path}.function.name`, `expected the tool's name, got ${describe(call.function.name)}`);
  checkTypes(call.function, { arguments: 'string' }, `${path}.function.`);
  const raw = call.function.arguments;
  let args: unknown = {};
  if (typeof raw === 'string' && raw.trim() !== '') {
    try {
      args = JSON.parse(raw);
    } catch {
      throw invalidField(`${path}.function.arguments`, 'not valid JSON');
    }
  }
  if (!isRecord(args)) throw invalidField(`${path}.function.arguments`, 'not a JSON object');
  return { id: call.id, name: call.function.name, arguments: args };
}

/** One Chat Completions message as a Switchyard message; refuses what has no equivalent, naming its path. */
export function messageFromOpenAI(message: unknown, path: string): Message {
  if (!isRecord(message)) throw invalidField(path, 'expected a message object');
  const role = message.role;
  if (role === 'function') throw unsupportedField(`${path}.role`, 'the deprecated function role; use tools and role "tool"');
  if (typeof role !== 'string' || !KNOWN[role]) throw invalidField(`${path}.role`, `unknown role ${JSON.stringify(role)}`);
  onlyKnownKeys(message, KNOWN[role]!, path);
  checkTypes(message, { name: 'string' }, `${path}.`);
  switch (role) {
    case 'system':
    case 'developer':
      return { role, content: textOf(message.content, `${path}.content`) };
    case 'user':
      if (typeof message.content === 'string') return { role: 'user', content: message.content };
      if (!Array.isArray(message.content)) throw invalidField(`${path}.content`, `expected a string or an array of content parts, got ${describe(message.content)}`);
      return { role: 'user', content: message.content.map((p, i) => userPart(p, `${path}.content[${i}]`)) };
    case 'tool':
      if (typeof message.tool_call_id !== 'string') throw invalidField(`${path}.tool_call_id`, 'expected the id of the tool call it answers');
      return { role: 'tool', toolCallId: message.tool_call_id, content: textOf(message.content, `${path}.content`) };
    default: {
      if (message.function_call) throw unsupportedField(`${path}.function_call`, 'deprecated; use tool_calls');
      if (message.audio) throw unsupportedField(`${path}.audio`, 'audio answers have no Switchyard equivalent');
      checkTypes(message, { tool_calls: 'array' }, `${path}.`);
      const calls = Array.isArray(message.tool_calls) ? message.tool_calls.map((c, i) => toolCallOf(c, `${path}.tool_calls[${i}]`)) : [];
      const text = message.content === null || message.content === undefined ? null : textOf(message.content, `${path}.content`);
      return { role: 'assistant', content: text, ...(calls.length > 0 ? { toolCalls: calls } : {}) };
    }
  }
}
