import { describe, expect, it } from 'vitest';
import { sentResponsesSchema } from '../../providers/openai/responses/body.js';
import { responsesPassThroughBlocker as blocker, sameJson } from '../../src/decide/responses-pass-through.js';

// The schema rule asks the target what it would send: the openai adapter's own answer.
const chat = { reasoning: false, sentSchema: sentResponsesSchema };
const reasoner = { reasoning: true, sentSchema: sentResponsesSchema };
const none = {};
const plain = { model: 'fast', instructions: 'Be brief.', input: 'Hi' };
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
const tool = { type: 'function', name: 'get_weather', description: 'The weather', parameters: schema, strict: true };

describe('responsesPassThroughBlocker: which Responses bodies go to a target as they are', () => {
  it('passes text input, instructions and the fields the target takes as they are', () => {
    expect(blocker(plain, chat, none)).toBeUndefined();
    expect(blocker({ ...plain, stream: true, store: false, metadata: { a: 'b' }, top_p: 0.5, user: 'u', truncation: 'disabled', background: false, stream_options: { include_obfuscation: false } }, chat, none)).toBeUndefined();
  });

  it('refuses a target that does not speak the Responses API', () => {
    expect(blocker(plain, undefined, none)).toBe('the target does not speak the Responses API');
  });

  it('refuses previous_response_id: the conversation is in the gateway\'s store', () => {
    expect(blocker({ ...plain, previous_response_id: 'resp_1' }, chat, none)).toMatch(/previous_response_id/);
  });

  it('refuses a field it does not list, even null', () => {
    expect(blocker({ ...plain, conversation: null }, chat, none)).toBe('conversation is mapped by the router');
    expect(blocker({ ...plain, prompt: { id: 'p' } }, chat, none)).toBe('prompt is mapped by the router');
  });

  it('passes text messages, function calls and their outputs; refuses ids, references, non-text parts and other items', () => {
    const items = [
      { role: 'system', content: 'Be brief.' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '21' },
      { role: 'assistant', content: [{ type: 'output_text', text: 'Warm.' }] },
    ];
    expect(blocker({ ...plain, input: items }, chat, none)).toBeUndefined();
    expect(blocker({ ...plain, input: [{ type: 'item_reference', id: 'msg_1' }] }, chat, none)).toMatch(/item_reference/);
    expect(blocker({ ...plain, input: [{ type: 'message', id: 'msg_1', role: 'assistant', content: 'x' }] }, chat, none)).toBe('an input message with id');
    expect(blocker({ ...plain, input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x/cat.png' }] }] }, chat, none)).toMatch(/other than text/);
    expect(blocker({ ...plain, input: [{ role: 'assistant', content: [{ type: 'output_text', text: 'x', annotations: [] }] }] }, chat, none)).toBe('a content part with annotations');
    expect(blocker({ ...plain, input: [{ type: 'function_call', id: 'fc_1', call_id: 'c', name: 'f', arguments: '{}' }] }, chat, none)).toBe('a function_call item with id');
    expect(blocker({ ...plain, input: [{ type: 'function_call', call_id: 'c'.repeat(41), name: 'f', arguments: '{}' }] }, chat, none)).toMatch(/shortens/);
    expect(blocker({ ...plain, input: [{ type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: 'x' }] }] }, chat, none)).toMatch(/not text/);
    expect(blocker({ ...plain, input: [{ type: 'web_search_call', id: 'ws_1', status: 'completed' }] }, chat, none)).toBe('a web_search_call input item');
    expect(blocker({ ...plain, input: [{ role: 'tool', content: 'x' }] }, chat, none)).toBe('a tool input message');
  });

  it('passes a strict tool whose schema is already strict; refuses tools the router rewrites', () => {
    expect(blocker({ ...plain, tools: [tool], tool_choice: 'required', parallel_tool_calls: false }, chat, none)).toBeUndefined();
    expect(blocker({ ...plain, tools: [{ ...tool, strict: false, parameters: { type: 'object', properties: {} } }] }, chat, none)).toBeUndefined();
    // The router closes the object and lists every property as required.
    expect(blocker({ ...plain, tools: [{ ...tool, parameters: { type: 'object', properties: { city: { type: 'string' } } } }] }, chat, none)).toMatch(/schema is rewritten/);
    expect(blocker({ ...plain, tools: [{ ...tool, strict: undefined }] }, chat, none)).toMatch(/does not say strict/);
    expect(blocker({ ...plain, tools: [{ ...tool, parameters: undefined }] }, chat, none)).toMatch(/no parameters/);
    expect(blocker({ ...plain, tools: [{ ...tool, strict: false, parameters: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' } }] }, chat, none)).toMatch(/schema is rewritten/);
  });

  it('passes the items the router replays verbatim (Codex\'s reasoning, freeform and local shell calls) and refuses other keys on them', () => {
    const reasoning = { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Thinking' }], content: null, encrypted_content: 'gAAAA-opaque' };
    const custom = { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' };
    const shell = { type: 'local_shell_call', id: 'lsh_1', call_id: 'call_3', status: 'completed', action: { type: 'exec', command: ['ls'] } };
    const items = [{ role: 'user', content: 'Hi' }, reasoning, custom, { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done' }, shell, { type: 'function_call_output', call_id: 'call_3', output: 'a' }];
    expect(blocker({ ...plain, input: items }, chat, none)).toBeUndefined();
    expect(blocker({ ...plain, input: [{ ...reasoning, extra: 1 }] }, chat, none)).toBe('a reasoning item with extra');
    expect(blocker({ ...plain, input: [{ type: 'custom_tool_call_output', call_id: 'c', output: [{ type: 'input_text', text: 'x' }] }] }, chat, none)).toMatch(/not text/);
  });

  it('passes Codex\'s client tools, text.verbosity, reasoning.summary and client_metadata: the translated body carries them too', () => {
    const custom = { type: 'custom', name: 'apply_patch', description: 'Edit files', format: { type: 'grammar', syntax: 'lark', definition: 'start: x' } };
    const codex = { ...plain, tools: [tool, custom, { type: 'local_shell' }], tool_choice: 'auto', parallel_tool_calls: false, text: { verbosity: 'low' }, client_metadata: { session_id: 's' } };
    expect(blocker(codex, chat, none)).toBeUndefined();
    expect(blocker({ ...codex, include: ['reasoning.encrypted_content'], reasoning: { effort: 'medium', summary: 'auto' } }, reasoner, none)).toBeUndefined();
    // With no function tool the router has no tools to put tool_choice on.
    expect(blocker({ ...plain, tools: [custom], tool_choice: 'auto' }, chat, none)).toMatch(/without tools/);
  });

  it('refuses tool_choice or parallel_tool_calls without tools: the router drops them', () => {
    expect(blocker({ ...plain, tool_choice: 'auto' }, chat, none)).toMatch(/without tools/);
    expect(blocker({ ...plain, tools: [], parallel_tool_calls: true }, chat, none)).toMatch(/without tools/);
  });

  it('passes a named json_schema text.format the router sends as it is; refuses json_object, no name, or a rewritten schema', () => {
    expect(blocker({ ...plain, text: { format: { type: 'text' } } }, chat, none)).toBeUndefined();
    expect(blocker({ ...plain, text: { format: { type: 'json_schema', name: 'w', schema, strict: true } } }, chat, none)).toBeUndefined();
    expect(blocker({ ...plain, text: { format: { type: 'json_object' } } }, chat, none)).toMatch(/json_object/);
    expect(blocker({ ...plain, text: { format: { type: 'json_schema', schema } } }, chat, none)).toMatch(/without a name/);
    expect(blocker({ ...plain, text: { format: { type: 'json_schema', name: 'w', schema, description: 'd' } } }, chat, none)).toBe('text.format with description');
    expect(blocker({ ...plain, text: { format: { type: 'json_schema', name: 'w', schema: { type: 'object', properties: { a: { type: 'string' } } }, strict: true } } }, chat, none)).toMatch(/schema is rewritten/);
  });

  it('refuses reasoning on a model that does not reason, efforts the router sends otherwise, and sampling on one that does', () => {
    const stored = { include: ['reasoning.encrypted_content'] };
    expect(blocker({ ...plain, ...stored, reasoning: { effort: 'low' } }, reasoner, none)).toBeUndefined();
    expect(blocker({ ...plain, reasoning: { effort: 'low' } }, chat, none)).toMatch(/does not reason/);
    expect(blocker({ ...plain, ...stored, reasoning: { effort: 'xhigh' } }, reasoner, none)).toMatch(/reasoning_effort/);
    expect(blocker({ ...plain, ...stored, temperature: 0.2 }, reasoner, { temperature: 0.2 })).toMatch(/refuses temperature/);
    expect(blocker({ ...plain, ...stored, top_p: 0.9 }, reasoner, none)).toMatch(/refuses temperature/);
  });

  it('refuses a stored reasoning answer without its encrypted content (the next turn replays it with store: false)', () => {
    expect(blocker(plain, reasoner, none)).toMatch(/encrypted_content/);
    expect(blocker({ ...plain, store: false }, reasoner, none)).toBeUndefined();
    expect(blocker({ ...plain, include: ['reasoning.encrypted_content'] }, reasoner, none)).toBeUndefined();
  });

  it('refuses a body whose chain step sets maxTokens or temperature the client did not send', () => {
    expect(blocker(plain, chat, { maxTokens: 100 })).toBe('the chain step sets maxTokens');
    expect(blocker({ ...plain, max_output_tokens: 100 }, chat, { maxTokens: 100 })).toBeUndefined();
    expect(blocker({ ...plain, max_output_tokens: 50 }, chat, { maxTokens: 50, temperature: 0.3 })).toBe('the chain step sets temperature');
  });

  it('passes providerOptions that are the body\'s own OpenAI-only fields, refuses any they add', () => {
    expect(blocker({ ...plain, service_tier: 'flex' }, chat, { extraBody: { service_tier: 'flex' } })).toBeUndefined();
    expect(blocker(plain, chat, { extraBody: { reasoning_effort: 'none' } })).toBe('providerOptions add to the body');
  });
});

describe('sameJson', () => {
  it('compares JSON values structurally, key order aside', () => {
    expect(sameJson({ a: [1, { b: 2, c: null }] }, { a: [1, { c: null, b: 2 }] })).toBe(true);
    expect(sameJson({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson([], {})).toBe(false);
  });
});
