import { describe, expect, it } from 'vitest';
import { fromOpenAI } from '../../src/convert/index.js';
import { MAX_TOKENS_MEANING } from '../../src/convert/max-tokens-meaning.js';

/** The request's mark that its maxTokens counts an OpenAI reasoning model's thinking (symbol-keyed). */
const withOpenAIMeaning = (fields: Record<string, unknown>): Record<string, unknown> => Object.assign(fields, { [MAX_TOKENS_MEANING]: 'openai' });

const weather = { type: 'function', function: { name: 'get_current_weather', description: 'Weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] }, strict: true } };

describe('fromOpenAI: request fields', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['model names the chain', { model: 'default' }, { chain: 'default' }],
    // max_completion_tokens counts an OpenAI reasoning model's thinking: the request says so (symbol-keyed).
    ['max_completion_tokens', { max_completion_tokens: 100 }, withOpenAIMeaning({ maxTokens: 100 })],
    ['max_tokens', { max_tokens: 50 }, { maxTokens: 50 }],
    ['max_completion_tokens over max_tokens', { max_tokens: 50, max_completion_tokens: 100 }, withOpenAIMeaning({ maxTokens: 100 })],
    ['temperature', { temperature: 0.2 }, { temperature: 0.2 }],
    ['top_p', { top_p: 0.9 }, { topP: 0.9 }],
    ['seed', { seed: 7 }, { seed: 7 }],
    ['user', { user: 'u-1' }, { user: 'u-1' }],
    ['stop as a string', { stop: 'END' }, { stop: 'END' }],
    ['stop as a list', { stop: ['a', 'b'] }, { stop: ['a', 'b'] }],
    ['tools', { tools: [weather] }, { tools: [{ name: 'get_current_weather', description: 'Weather', parameters: weather.function.parameters, strict: true }] }],
    ['a tool without parameters', { tools: [{ type: 'function', function: { name: 'now' } }] }, { tools: [{ name: 'now', parameters: { type: 'object', properties: {} } }] }],
    ['tool_choice auto', { tool_choice: 'auto' }, { toolChoice: 'auto' }],
    ['tool_choice none', { tool_choice: 'none' }, { toolChoice: 'none' }],
    ['tool_choice required', { tool_choice: 'required' }, { toolChoice: 'required' }],
    ['a named tool_choice', { tool_choice: { type: 'function', function: { name: 'f' } } }, { toolChoice: { name: 'f' } }],
    ['parallel_tool_calls', { parallel_tool_calls: false }, { parallelToolCalls: false }],
    ['response_format json_object', { response_format: { type: 'json_object' } }, { responseFormat: { type: 'json' } }],
    ['response_format json_schema', { response_format: { type: 'json_schema', json_schema: { name: 'contact', schema: { type: 'object' }, strict: true } } },
      { responseFormat: { type: 'json_schema', name: 'contact', schema: { type: 'object' }, strict: true } }],
    ['response_format json_schema without strict: not strict, as OpenAI reads it', { response_format: { type: 'json_schema', json_schema: { name: 'contact', schema: { type: 'object' } } } },
      { responseFormat: { type: 'json_schema', name: 'contact', schema: { type: 'object' }, strict: false } }],
    ['reasoning_effort', { reasoning_effort: 'minimal' }, { reasoning: { effort: 'minimal' } }],
    ['reasoning_effort xhigh: high for all, as written for OpenAI', { reasoning_effort: 'xhigh' },
      { reasoning: { effort: 'high' }, providerOptions: { openai: { reasoning_effort: 'xhigh' }, 'openai-compatible': { reasoning_effort: 'xhigh' } } }],
    ['reasoning_effort none: for OpenAI only', { reasoning_effort: 'none' }, { providerOptions: { openai: { reasoning_effort: 'none' }, 'openai-compatible': { reasoning_effort: 'none' } } }],
    ['OpenAI-only tuning into providerOptions', { frequency_penalty: 0.5, service_tier: 'flex', logprobs: true },
      { providerOptions: { openai: { frequency_penalty: 0.5, service_tier: 'flex', logprobs: true }, 'openai-compatible': { frequency_penalty: 0.5, service_tier: 'flex', logprobs: true } } }],
  ])('maps %s', (_what, fields, expected) => {
    const request = fromOpenAI({ messages: [{ role: 'user', content: 'hi' }], ...fields });
    expect(request).toEqual({ messages: [{ role: 'user', content: 'hi' }], ...expected });
  });

  it('lets the caller name the chain over the model', () => {
    expect(fromOpenAI({ model: 'gpt-4o', messages: [] }, { chain: 'default' }).chain).toBe('default');
  });

  it.each([
    ['stream', { stream: true, stream_options: { include_usage: true } }],
    ['text response_format', { response_format: { type: 'text' } }],
    ['n of 1', { n: 1 }],
    ['text modalities', { modalities: ['text'] }],
    ['nulls', { tool_choice: null, reasoning_effort: null, n: null }],
  ])('accepts %s and maps nothing for it', (_what, fields) => {
    expect(fromOpenAI({ messages: [], ...fields })).toEqual({ messages: [] });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['n > 1', { n: 2 }, 'n'],
    ['functions', { functions: [] }, 'functions'],
    ['function_call', { function_call: 'auto' }, 'function_call'],
    ['audio', { audio: { voice: 'alloy', format: 'wav' } }, 'audio'],
    ['audio modalities', { modalities: ['text', 'audio'] }, 'modalities'],
    ['an unknown field', { best_of: 3 }, 'best_of'],
    ['a custom tool', { tools: [{ type: 'custom', custom: { name: 'grammar' } }] }, 'tools[0]'],
    ['allowed_tools', { tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } } }, 'tool_choice'],
    ['an unknown effort', { reasoning_effort: 'extreme' }, 'reasoning_effort'],
  ])('refuses %s with invalid_request naming the field', (_what, fields, field) => {
    expect(() => fromOpenAI({ messages: [], ...fields })).toThrow(expect.objectContaining({ kind: 'invalid_request', param: field, message: expect.stringContaining(`fromOpenAI: ${field} `) }));
  });
});

describe('fromOpenAI: messages', () => {
  it('maps every role, content parts, tool calls with parsed arguments, and tool results', () => {
    const request = fromOpenAI({ messages: [
      { role: 'developer', content: 'Be terse.' },
      { role: 'system', content: [{ type: 'text', text: 'You ' }, { type: 'text', text: 'help.' }] },
      { role: 'user', name: 'ann', content: [
        { type: 'text', text: 'What is in these?' },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
        { type: 'file', file: { file_data: 'JVBERi0=' } },
      ] },
      { role: 'assistant', content: null, refusal: null, annotations: [], tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_current_weather', arguments: '{\n"location": "Boston, MA"\n}' } },
        { id: 'call_2', type: 'function', function: { name: 'now', arguments: '' } },
      ] },
      { role: 'tool', tool_call_id: 'call_1', content: '22 C' },
      { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'noon' }] },
      { role: 'assistant', content: 'It is 22 C at noon.' },
    ] });
    expect(request.messages).toEqual([
      { role: 'developer', content: 'Be terse.' },
      { role: 'system', content: 'You help.' },
      { role: 'user', content: [
        { type: 'text', text: 'What is in these?' },
        { type: 'image', url: 'https://example.com/a.png', detail: 'low' },
        { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' },
        { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'a.pdf' },
        { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf' },
      ] },
      { role: 'assistant', content: null, toolCalls: [
        { id: 'call_1', name: 'get_current_weather', arguments: { location: 'Boston, MA' } },
        { id: 'call_2', name: 'now', arguments: {} },
      ] },
      { role: 'tool', toolCallId: 'call_1', content: '22 C' },
      { role: 'tool', toolCallId: 'call_2', content: 'noon' },
      { role: 'assistant', content: 'It is 22 C at noon.' },
    ]);
  });

  it.each<[string, unknown, string]>([
    ['the function role', { role: 'function', name: 'f', content: 'x' }, 'messages[0].role'],
    ['an uploaded file id', { role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc' } }] }, 'messages[0].content[0].file.file_id'],
    ['an audio part', { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AA==', format: 'wav' } }] }, 'messages[0].content[0]'],
    ['tool-call arguments that are not JSON', { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }] }, 'messages[0].tool_calls[0].function.arguments'],
    ['an unknown message field', { role: 'user', content: 'x', cache_control: { type: 'ephemeral' } }, 'messages[0].cache_control'],
    ['an image part in a system message', { role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://x' } }] }, 'messages[0].content[0]'],
  ])('refuses %s with invalid_request naming its path', (_what, message, path) => {
    expect(() => fromOpenAI({ messages: [message] })).toThrow(expect.objectContaining({ kind: 'invalid_request', param: path, message: expect.stringContaining(`fromOpenAI: ${path} `) }));
  });
});

describe('fromOpenAI: strict types', () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ['a temperature that is a word', { temperature: 'hot' }, 'temperature', 'expected a number, got "hot"'],
    ['max_tokens as a string', { max_tokens: '100' }, 'max_tokens', 'expected an integer, got "100"'],
    ['a fractional max_completion_tokens', { max_completion_tokens: 1.5 }, 'max_completion_tokens', 'expected an integer, got 1.5'],
    ['top_p as a boolean', { top_p: true }, 'top_p', 'expected a number, got true'],
    ['a seed that is not an integer', { seed: 'x' }, 'seed', 'expected an integer'],
    ['stream as a string', { stream: 'yes' }, 'stream', 'expected true or false'],
    ['stream_options.include_usage as a string', { stream_options: { include_usage: 'yes' } }, 'stream_options.include_usage', 'expected true or false'],
    ['stop as a number', { stop: 5 }, 'stop', 'expected a string or an array of strings'],
    ['stop with a number in it', { stop: ['a', 5] }, 'stop', 'expected a string or an array of strings'],
    ['tools as an object', { tools: {} }, 'tools', 'expected an array'],
    ['a user that is a number', { user: 7 }, 'user', 'expected a string'],
    ['parallel_tool_calls as a string', { parallel_tool_calls: 'false' }, 'parallel_tool_calls', 'expected true or false'],
    ['a passed-through penalty that is not a number', { frequency_penalty: 'none' }, 'frequency_penalty', 'expected a number'],
    ['a tool_choice word the API does not have', { tool_choice: 'any' }, 'tool_choice', 'expected auto, none, required'],
    ['tool parameters that are not an object', { tools: [{ type: 'function', function: { name: 'f', parameters: 'x' } }] }, 'tools[0].function.parameters', 'expected an object'],
    ['a json_schema format without its object', { response_format: { type: 'json_schema' } }, 'response_format.json_schema', 'expected an object'],
  ])('refuses %s, naming the wire field, in one line', (_what, fields, param, why) => {
    let thrown: unknown;
    try {
      fromOpenAI({ messages: [{ role: 'user', content: 'hi' }], ...fields });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({ kind: 'invalid_request', param, code: 'invalid_parameter' });
    expect((thrown as Error).message).toContain(why);
    expect((thrown as Error).message).not.toContain('\n');
  });

  it('takes null for "not set", as the API does', () => {
    expect(fromOpenAI({ messages: [{ role: 'user', content: 'hi' }], temperature: null, max_tokens: null, stop: null, seed: null, tools: null, stream_options: null })).toEqual({ messages: [{ role: 'user', content: 'hi' }] });
  });

  it.each<[string, unknown, string]>([
    ['user content that is a number', { role: 'user', content: 42 }, 'messages[0].content'],
    ['a text part whose text is not a string', { role: 'user', content: [{ type: 'text', text: 3 }] }, 'messages[0].content[0].text'],
    ['a name that is not a string', { role: 'user', content: 'x', name: 5 }, 'messages[0].name'],
    ['a tool call without an id', { role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{}' } }] }, 'messages[0].tool_calls[0].id'],
    ['tool-call arguments as an object', { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }] }, 'messages[0].tool_calls[0].function.arguments'],
    ['tool_calls as an object', { role: 'assistant', content: null, tool_calls: {} }, 'messages[0].tool_calls'],
  ])('refuses %s naming its path', (_what, message, path) => {
    expect(() => fromOpenAI({ messages: [message] })).toThrow(expect.objectContaining({ kind: 'invalid_request', param: path, code: 'invalid_parameter' }));
  });

  it('accepts name on every role (LangChain\'s ToolMessage sends the tool\'s), and drops it', () => {
    const request = fromOpenAI({ messages: [
      { role: 'system', name: 's', content: 'Be terse.' },
      { role: 'user', name: 'ann', content: 'Weather?' },
      { role: 'assistant', name: 'bot', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'w', arguments: '{}' } }] },
      { role: 'tool', name: 'w', tool_call_id: 'call_1', content: 'sunny' },
    ] });
    expect(request.messages).toEqual([
      { role: 'system', content: 'Be terse.' },
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'w', arguments: {} }] },
      { role: 'tool', toolCallId: 'call_1', content: 'sunny' },
    ]);
  });
});
