import { isRecord } from '../../convert/convert-error.js';
import { checkTypes as checkWireTypes, type WireType } from '../../convert/wire-types.js';
import type { CacheBreakpoint, ContentPart, Message, ToolCall } from '../../types.js';
import { invalid, unsupported, wrongType } from './wire-error.js';

const checkTypes = (body: Record<string, unknown>, types: Record<string, WireType>, prefix: string) => checkWireTypes(body, types, prefix, invalid);

/**
 * Keys a content block may carry besides those it is read for: `cache_control` (a prompt-caching
 * breakpoint, read by `cacheOf` into the router's `cache` marker) and `citations` (what a text block
 * of an answer carries when it is sent back; dropped).
 */
const IGNORED = new Set(['cache_control', 'citations']);

/**
 * A block's (or tool's, or a system block's) `cache_control: {type: 'ephemeral', ttl?, ...}` as the
 * router's cache breakpoint. One with keys besides `type` and `ttl` (`scope`, any key Anthropic
 * adds later) keeps the object as written (`cacheControl`): Anthropic targets get it exactly so;
 * other providers read its `ttl` alone (https://docs.claude.com/en/docs/build-with-claude/prompt-caching).
 * A `type` other than `ephemeral`, or a `ttl` other than 5m or 1h, is a 400 naming it.
 */
export function cacheOf(cacheControl: unknown, path: string): { cache?: CacheBreakpoint } {
  if (cacheControl === undefined || cacheControl === null) return {};
  if (!isRecord(cacheControl) || cacheControl.type !== 'ephemeral') throw wrongType(path, '{"type": "ephemeral"} (with an optional ttl)', cacheControl);
  const cache: CacheBreakpoint = {};
  const ttl = cacheControl.ttl;
  if (ttl !== undefined && ttl !== null) {
    if (ttl !== '5m' && ttl !== '1h') throw wrongType(`${path}.ttl`, '"5m" or "1h"', ttl);
    cache.ttl = ttl;
  }
  for (const key in cacheControl) {
    if (key !== 'type' && key !== 'ttl') {
      cache.cacheControl = cacheControl;
      break;
    }
  }
  return { cache };
}

const blockCache = (block: Record<string, unknown>, path: string) => cacheOf(block.cache_control, `${path}.cache_control`);

/** What each block type is read for; any other key is refused, naming it. */
const BLOCK_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  text: new Set(['type', 'text']),
  image: new Set(['type', 'source']),
  document: new Set(['type', 'source', 'title', 'context']),
  tool_result: new Set(['type', 'tool_use_id', 'content', 'is_error']),
  tool_use: new Set(['type', 'id', 'name', 'input', 'caller']),
  thinking: new Set(['type', 'thinking', 'signature']),
  redacted_thinking: new Set(['type', 'data']),
};

/** A router message converted from the wire, with the path of what it came from (for naming a refused parameter). */
export interface Converted {
  message: Message;
  /** `messages[2]` for a turn, `messages[2].content[0]` for a tool result, `system` for the system prompt. */
  path: string;
}

function blockOf(block: unknown, path: string): Record<string, unknown> & { type: string } {
  if (!isRecord(block)) throw wrongType(path, 'a content block', block);
  if (typeof block.type !== 'string') throw wrongType(`${path}.type`, 'a block type', block.type);
  const known = BLOCK_KEYS[block.type];
  if (!known) throw unsupported(path, `a ${block.type} block has no Switchyard equivalent`);
  for (const key of Object.keys(block)) {
    if (!known.has(key) && !IGNORED.has(key) && block[key] !== undefined) throw unsupported(`${path}.${key}`, 'no Switchyard equivalent');
  }
  return block as Record<string, unknown> & { type: string };
}

function textOf(block: Record<string, unknown>, path: string): string {
  if (typeof block.text !== 'string') throw wrongType(`${path}.text`, 'a string', block.text);
  return block.text;
}

function imageOf(block: Record<string, unknown>, path: string): ContentPart {
  const source = block.source;
  if (!isRecord(source)) throw wrongType(`${path}.source`, 'an image source', source);
  if (source.type === 'base64') {
    if (typeof source.data !== 'string' || typeof source.media_type !== 'string') throw wrongType(`${path}.source.data`, 'base64 data and its media_type', source.data);
    return { type: 'image', url: `data:${source.media_type};base64,${source.data}` };
  }
  if (source.type === 'url') {
    if (typeof source.url !== 'string') throw wrongType(`${path}.source.url`, 'a URL', source.url);
    return { type: 'image', url: source.url };
  }
  throw unsupported(`${path}.source.type`, `${String(source.type)} image sources (uploaded files) mean nothing to other providers; send base64 or a URL`);
}

function documentOf(block: Record<string, unknown>, path: string): ContentPart {
  const source = block.source;
  if (!isRecord(source)) throw wrongType(`${path}.source`, 'a document source', source);
  if (source.type === 'base64') {
    if (typeof source.data !== 'string') throw wrongType(`${path}.source.data`, 'base64 data', source.data);
    const mediaType = typeof source.media_type === 'string' ? source.media_type : 'application/pdf';
    return { type: 'file', data: source.data, mediaType, ...(typeof block.title === 'string' ? { filename: block.title } : {}) };
  }
  if (source.type === 'text') {
    if (typeof source.data !== 'string') throw wrongType(`${path}.source.data`, 'the text', source.data);
    return { type: 'text', text: source.data };
  }
  throw unsupported(`${path}.source.type`, `${String(source.type)} document sources have no Switchyard equivalent; send base64 or text`);
}

/** A tool result's content: a string, or text blocks (images and documents in a tool result have no equivalent elsewhere). */
function toolResultText(content: unknown, path: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw wrongType(path, 'a string or an array of text blocks', content);
  return content.map((b, i) => {
    const block = blockOf(b, `${path}[${i}]`);
    if (block.type !== 'text') throw unsupported(`${path}[${i}]`, `a ${block.type} block in a tool result has no equivalent on other providers (text only)`);
    return textOf(block, `${path}[${i}]`);
  }).join('');
}

/**
 * A user turn: its tool results first (each a tool message: they answer the previous turn's calls,
 * which every API wants directly after it), then its text, images and documents as one user message.
 */
function userTurn(content: unknown, path: string): Converted[] {
  if (typeof content === 'string') return [{ message: { role: 'user', content }, path }];
  if (!Array.isArray(content)) throw wrongType(`${path}.content`, 'a string or an array of content blocks', content);
  const results: Converted[] = [];
  const parts: ContentPart[] = [];
  content.forEach((b, i) => {
    const at = `${path}.content[${i}]`;
    const block = blockOf(b, at);
    switch (block.type) {
      case 'text': parts.push({ type: 'text', text: textOf(block, at), ...blockCache(block, at) }); break;
      case 'image': parts.push(Object.assign({}, imageOf(block, at), blockCache(block, at))); break;
      case 'document': parts.push(Object.assign({}, documentOf(block, at), blockCache(block, at))); break;
      case 'tool_result': {
        if (typeof block.tool_use_id !== 'string') throw wrongType(`${at}.tool_use_id`, 'the id of the tool_use it answers', block.tool_use_id);
        checkTypes(block, { is_error: 'boolean' }, `${at}.`);
        const text = toolResultText(block.content, `${at}.content`);
        results.push({ message: { role: 'tool', toolCallId: block.tool_use_id, content: text, ...(block.is_error === true ? { isError: true } : {}), ...blockCache(block, at) }, path: at });
        break;
      }
      default: throw unsupported(at, `a ${block.type} block is not allowed in a user turn`);
    }
  });
  if (parts.length > 0) results.push({ message: { role: 'user', content: parts }, path });
  if (results.length === 0) throw wrongType(`${path}.content`, 'at least one content block', content);
  return results;
}

/**
 * An assistant turn: text and tool_use blocks; thinking blocks keep the whole turn verbatim for
 * Anthropic targets (`cache_control` included). A `cache_control` on any of its blocks is the turn's
 * `cache`: a breakpoint after the turn's last block (the later place; the prefix cached is the same
 * or longer).
 */
function assistantTurn(content: unknown, path: string): Converted {
  if (typeof content === 'string') return { message: { role: 'assistant', content }, path };
  if (!Array.isArray(content)) throw wrongType(`${path}.content`, 'a string or an array of content blocks', content);
  let text = '';
  let thinking = false;
  let cache: { cache?: CacheBreakpoint } = {};
  const calls: ToolCall[] = [];
  content.forEach((b, i) => {
    const at = `${path}.content[${i}]`;
    const block = blockOf(b, at);
    const marked = blockCache(block, at);
    if (marked.cache) cache = marked;
    switch (block.type) {
      case 'text': text += textOf(block, at); break;
      case 'tool_use':
        if (typeof block.id !== 'string') throw wrongType(`${at}.id`, 'the call\'s id', block.id);
        if (typeof block.name !== 'string') throw wrongType(`${at}.name`, 'the tool\'s name', block.name);
        if (!isRecord(block.input)) throw wrongType(`${at}.input`, 'an object', block.input);
        calls.push({ id: block.id, name: block.name, arguments: block.input });
        break;
      case 'thinking':
      case 'redacted_thinking':
        thinking = true;
        break;
      default: throw unsupported(at, `a ${block.type} block is not allowed in an assistant turn`);
    }
  });
  return {
    message: {
      role: 'assistant',
      content: text === '' && calls.length > 0 ? null : text,
      ...(calls.length > 0 ? { toolCalls: calls } : {}),
      ...cache,
      // Thinking must go back to Anthropic exactly as it came, signatures and order included.
      ...(thinking ? { providerParts: { api: 'anthropic' as const, blocks: content } } : {}),
    },
    path,
  };
}

/**
 * The `system` prompt: a string or text blocks, as one system message; when a block carries
 * `cache_control`, one system message per block, each with its own `cache`, so an Anthropic target
 * gets the same blocks with the same breakpoints.
 */
export function systemOf(system: unknown): Converted[] {
  if (system === undefined || system === null) return [];
  if (typeof system === 'string') return system === '' ? [] : [{ message: { role: 'system', content: system }, path: 'system' }];
  if (!Array.isArray(system)) throw wrongType('system', 'a string or an array of text blocks', system);
  const blocks = system.map((b, i) => {
    const block = blockOf(b, `system[${i}]`);
    if (block.type !== 'text') throw unsupported(`system[${i}]`, 'the system prompt takes text blocks only');
    return { text: textOf(block, `system[${i}]`), ...blockCache(block, `system[${i}]`), path: `system[${i}]` };
  });
  if (blocks.some((b) => b.cache)) {
    return blocks.filter((b) => b.text !== '').map((b) => ({ message: { role: 'system', content: b.text, ...(b.cache ? { cache: b.cache } : {}) }, path: b.path }));
  }
  const text = blocks.map((b) => b.text).join('\n\n');
  return text === '' ? [] : [{ message: { role: 'system', content: text }, path: 'system' }];
}

/** Every turn of `messages`, in order, as router messages. */
export function messagesOf(messages: unknown): Converted[] {
  if (!Array.isArray(messages)) throw wrongType('messages', 'an array of messages', messages);
  return messages.flatMap((m, i) => {
    const path = `messages[${i}]`;
    if (!isRecord(m)) throw wrongType(path, 'a message', m);
    for (const key of Object.keys(m)) if (key !== 'role' && key !== 'content' && m[key] !== undefined) throw unsupported(`${path}.${key}`, 'no Switchyard equivalent');
    if (m.role === 'user') return userTurn(m.content, path);
    if (m.role === 'assistant') return [assistantTurn(m.content, path)];
    throw wrongType(`${path}.role`, '"user" or "assistant" (the system prompt goes in system)', m.role);
  });
}
