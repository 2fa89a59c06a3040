import { describe, expect, it } from 'vitest';
import { inputSchema } from '../../providers/anthropic/tools.js';
import type { JSONSchema } from '../../src/types.js';
import { messagesPassThroughBlocker as blocker } from '../../src/decide/messages-pass-through.js';

// The schema rule asks the target what it would send: the anthropic adapter's own answer.
const sentSchema = (schema: JSONSchema, strict: boolean) => inputSchema(schema, strict) as JSONSchema;
const current = { thinking: 'adaptive' as const, structuredOutput: true, sentSchema };
const sonnet45 = { thinking: 'budget' as const, structuredOutput: true, sentSchema };
const haiku35 = { thinking: 'none' as const, structuredOutput: false, sentSchema };
const plain = { model: 'claude', max_tokens: 256, messages: [{ role: 'user', content: 'Hi' }] };
const sent = { maxTokens: 256 };
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
const tool = { name: 'get_weather', description: 'The weather', input_schema: schema };

describe('messagesPassThroughBlocker: which Messages bodies go to an Anthropic target as they are', () => {
  it('passes Anthropic\'s own fields as the client wrote them, context_management and cache_control included', () => {
    const body = {
      ...plain, stream: true, system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral', ttl: '1h', scope: 'org' } }],
      stop_sequences: ['END'], metadata: { user_id: 'u1' }, top_k: 5, service_tier: 'auto', cache_control: { type: 'ephemeral' },
      context_management: { edits: [{ type: 'clear_thinking_20251015' }] }, tools: [{ ...tool, eager_input_streaming: true }], tool_choice: { type: 'auto' },
    };
    expect(blocker(body, current, sent)).toBeUndefined();
  });

  it('refuses a target that does not take Messages bodies', () => {
    expect(blocker(plain, undefined, sent)).toBe('the target does not take Anthropic Messages bodies as they are');
  });

  it('refuses temperature and top_p, which the router drops for API version 2026-10-21, and fields it does not list', () => {
    expect(blocker({ ...plain, temperature: 0.2 }, current, sent)).toBe('temperature is dropped by the router (API version 2026-10-21 refuses it)');
    expect(blocker({ ...plain, top_p: 0.9 }, current, sent)).toMatch(/^top_p is dropped/);
    expect(blocker({ ...plain, container: 'c1' }, current, sent)).toBe('container is mapped by the router');
    expect(blocker({ ...plain, top_k: null }, current, sent)).toBe('top_k is null (dropped by the router)');
  });

  it('refuses a body whose max_tokens the chain step or the router sets, and providerOptions that add to it', () => {
    expect(blocker(plain, current, { maxTokens: 100 })).toBe('the chain step sets maxTokens');
    const { max_tokens: _, ...without } = plain;
    expect(blocker(without, current, { maxTokens: 4096 })).toBe('max_tokens is set by the router');
    // The gateway's providerOptions.anthropic are the body's own fields, the same values.
    expect(blocker({ ...plain, top_k: 5 }, current, { maxTokens: 256, extraBody: { top_k: 5 } })).toBeUndefined();
    expect(blocker(plain, current, { maxTokens: 256, extraBody: { top_k: 5 } })).toBe('providerOptions add to the body');
    expect(blocker(plain, current, { maxTokens: 256, extraBody: true })).toBe('providerOptions add to the body');
  });

  it('refuses what the translated path drops: whitespace stop sequences, an empty user id, tool_choice or tool history without tools', () => {
    expect(blocker({ ...plain, stop_sequences: [' '] }, current, sent)).toMatch(/whitespace-only stop sequence/);
    expect(blocker({ ...plain, metadata: { user_id: '' } }, current, sent)).toMatch(/empty metadata.user_id/);
    expect(blocker({ ...plain, tool_choice: { type: 'auto' } }, current, sent)).toBe('tool_choice without tools is dropped by the router');
    const history = [...plain.messages, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }];
    expect(blocker({ ...plain, messages: history }, current, sent)).toMatch(/stand-in definitions/);
    expect(blocker({ ...plain, messages: history, tools: [tool] }, current, sent)).toBeUndefined();
  });

  it('passes a tool schema the router sends unchanged; refuses one it closes, strips or lacks', () => {
    expect(blocker({ ...plain, tools: [{ ...tool, strict: true }] }, current, sent)).toBeUndefined();
    const open = { type: 'object', properties: { city: { type: 'string' } } };
    expect(blocker({ ...plain, tools: [{ ...tool, input_schema: open }] }, current, sent)).toBeUndefined();
    expect(blocker({ ...plain, tools: [{ ...tool, input_schema: open, strict: true }] }, current, sent)).toBe('tool get_weather\'s schema is rewritten by the router');
    expect(blocker({ ...plain, tools: [{ ...tool, input_schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema } }] }, current, sent)).toMatch(/schema is rewritten/);
    expect(blocker({ ...plain, tools: [{ name: 'f' }] }, current, sent)).toMatch(/no input_schema/);
  });

  it('passes output_config.format on a model with structured output when its schema is closed; refuses it otherwise', () => {
    const format = { type: 'json_schema', schema };
    expect(blocker({ ...plain, output_config: { format } }, current, sent)).toBeUndefined();
    expect(blocker({ ...plain, output_config: { format } }, haiku35, sent)).toMatch(/goes as a forced tool/);
    expect(blocker({ ...plain, output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: {} } } } }, current, sent)).toMatch(/closed by the router/);
  });

  it('passes thinking in the form the model takes, with its budget as written; refuses the forms the router maps or turns off', () => {
    const budget = { type: 'enabled', budget_tokens: 10_000 };
    expect(blocker({ ...plain, thinking: budget }, sonnet45, sent)).toBeUndefined();
    expect(blocker({ ...plain, thinking: { type: 'adaptive' }, output_config: { effort: 'high' } }, current, sent)).toBeUndefined();
    expect(blocker({ ...plain, thinking: { type: 'disabled' } }, haiku35, sent)).toBeUndefined();
    expect(blocker({ ...plain, thinking: budget }, current, sent)).toMatch(/budget_tokens on a model that thinks adaptively/);
    expect(blocker({ ...plain, thinking: { type: 'adaptive' } }, sonnet45, sent)).toMatch(/adaptive thinking on a model that takes budget_tokens/);
    expect(blocker({ ...plain, output_config: { effort: 'low' } }, sonnet45, sent)).toMatch(/output_config.effort/);
    expect(blocker({ ...plain, thinking: budget }, haiku35, sent)).toMatch(/does not think/);
    expect(blocker({ ...plain, thinking: budget, tools: [tool], tool_choice: { type: 'any' } }, sonnet45, sent)).toMatch(/forced tool/);
  });

  it('refuses thinking after a tool-calling turn without thinking blocks (it came from another API), passes one that opens with them', () => {
    const call = { type: 'tool_use', id: 't1', name: 'get_weather', input: { city: 'Oslo' } };
    const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '21' }] };
    const bare = [...plain.messages, { role: 'assistant', content: [call] }, result];
    const thought = [...plain.messages, { role: 'assistant', content: [{ type: 'thinking', thinking: 'Look it up.', signature: 'sig' }, call] }, result];
    const body = { ...plain, tools: [tool], thinking: { type: 'adaptive' } };
    expect(blocker({ ...body, messages: bare }, current, sent)).toMatch(/tool-calling turn without thinking blocks/);
    expect(blocker({ ...body, messages: thought }, current, sent)).toBeUndefined();
  });
});
