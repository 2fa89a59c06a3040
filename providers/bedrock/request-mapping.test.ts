import { describe, expect, it } from 'vitest';
import { RouterError } from '../../src/errors.js';
import type { ProviderRequest } from '../types.js';
import { converseInput, JSON_INSTRUCTION } from './converse-request.js';
import { bedrockToolId } from './messages.js';
import { baseModelId, bedrockModelTraits } from './model-family.js';

const CLAUDE_45 = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const CLAUDE_46 = 'global.anthropic.claude-opus-4-6-v1';
const base: ProviderRequest = { model: CLAUDE_45, messages: [{ role: 'user', content: 'What is the weather in Paris?' }] };
const weather = { name: 'get_weather', description: 'The weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const failure = (fn: () => unknown): RouterError => {
  try {
    fn();
  } catch (err) {
    return err as RouterError;
  }
  throw new Error('expected a throw');
};

describe('bedrock model ids', () => {
  it.each([
    ['anthropic.claude-3-haiku-20240307-v1:0', 'anthropic', 30, 'none', false, false],
    ['us.anthropic.claude-3-7-sonnet-20250219-v1:0', 'anthropic', 37, 'budget', false, true],
    [CLAUDE_45, 'anthropic', 45, 'budget', true, true],
    [CLAUDE_46, 'anthropic', 46, 'adaptive', true, true],
    ['arn:aws:bedrock:us-east-1:123456789012:inference-profile/eu.anthropic.claude-haiku-4-5-20251001-v1:0', 'anthropic', 45, 'budget', true, true],
    ['arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-opus-4-20250514-v1:0', 'anthropic', 40, 'budget', false, true],
    ['anthropic.claude-mythos-5', 'anthropic', 50, 'adaptive', true, true],
    ['meta.llama3-70b-instruct-v1:0', 'meta', undefined, 'none', false, false],
    ['us.amazon.nova-pro-v1:0', 'amazon', undefined, 'none', false, true],
    ['qwen.qwen3-32b-v1:0', 'qwen', undefined, 'none', true, false],
    ['arn:aws:bedrock:us-east-1:123456789012:provisioned-model/abc123xyz', '', undefined, 'none', false, false],
    ['anthropic.claude-3-5-haiku-20241022-v1:0', 'anthropic', 35, 'none', false, true],
  ] as const)('reads %s as vendor %j, Claude %s, thinking %s, native JSON schema %s, prompt caching %s', (model, vendor, version, thinking, native, promptCache) => {
    expect(bedrockModelTraits(model)).toEqual({ vendor, ...(version !== undefined ? { claudeVersion: version } : {}), thinking, nativeJsonSchema: native, promptCache });
  });

  it('takes the model id out of an inference-profile ARN and drops the geography prefix', () => {
    expect(baseModelId('arn:aws:bedrock:us-west-2:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe('anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(baseModelId('apac.amazon.nova-lite-v1:0')).toBe('amazon.nova-lite-v1:0');
  });

  it('sends an ARN or an inference profile id as the modelId, unchanged', () => {
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0';
    expect(converseInput({ ...base, model: arn }).modelId).toBe(arn);
    expect(converseInput(base).modelId).toBe(CLAUDE_45);
  });
});

describe('bedrock request: system, parameters, history', () => {
  it('hoists system and developer messages into system blocks and maps the inference parameters', () => {
    const input = converseInput({ ...base, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'developer', content: 'Use metric.' }, ...base.messages], maxTokens: 300, temperature: 0.2, topP: 0.9, stop: ['END', ''] });
    expect(input.system).toEqual([{ text: 'Be brief.' }, { text: 'Use metric.' }]);
    expect(input.messages).toEqual([{ role: 'user', content: [{ text: 'What is the weather in Paris?' }] }]);
    expect(input.inferenceConfig).toEqual({ maxTokens: 300, temperature: 0.2, topP: 0.9, stopSequences: ['END'] });
  });

  it('drops seed and parallelToolCalls (no Converse field) and sends user as requestMetadata when its characters are allowed', () => {
    const input = converseInput({ ...base, seed: 7, parallelToolCalls: false, user: 'tenant-a:user@42' });
    expect(input).not.toHaveProperty('seed');
    expect(JSON.stringify(input)).not.toContain('parallel');
    expect(input.requestMetadata).toEqual({ user: 'tenant-a:user@42' });
    expect(converseInput({ ...base, user: 'naïve ☃' })).not.toHaveProperty('requestMetadata');
  });

  it('merges providerOptions last, so they win', () => {
    const input = converseInput({ ...base, extraBody: { performanceConfig: { latency: 'optimized' }, inferenceConfig: { maxTokens: 5 } } });
    expect(input.performanceConfig).toEqual({ latency: 'optimized' });
    expect(input.inferenceConfig).toEqual({ maxTokens: 5 });
  });

  it('turns an OpenAI tool turn into toolUse blocks and its results (one failed) into one user message with the next question', () => {
    const input = converseInput({ ...base, tools: [weather], messages: [
      { role: 'user', content: 'Paris and Oslo?' },
      { role: 'assistant', content: '', toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
        { id: 'functions.get_weather:1', name: 'get_weather', arguments: { city: 'Oslo' } },
      ] },
      { role: 'tool', toolCallId: 'call_a', content: '21C' },
      { role: 'tool', toolCallId: 'functions.get_weather:1', content: 'station offline', isError: true },
      { role: 'user', content: 'And tomorrow?' },
    ] });
    const odd = bedrockToolId('functions.get_weather:1');
    expect(odd).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(input.messages).toEqual([
      { role: 'user', content: [{ text: 'Paris and Oslo?' }] },
      { role: 'assistant', content: [
        { toolUse: { toolUseId: 'call_a', name: 'get_weather', input: { city: 'Paris' } } },
        { toolUse: { toolUseId: odd, name: 'get_weather', input: { city: 'Oslo' } } },
      ] },
      { role: 'user', content: [
        { toolResult: { toolUseId: 'call_a', content: [{ text: '21C' }], status: 'success' } },
        { toolResult: { toolUseId: odd, content: [{ text: 'station offline' }], status: 'error' } },
        { text: 'And tomorrow?' },
      ] },
    ]);
  });

  it('leaves out empty messages and merges what that makes adjacent, so the roles still alternate', () => {
    const input = converseInput({ ...base, messages: [
      { role: 'user', content: 'One.' }, { role: 'assistant', content: '  ' }, { role: 'user', content: 'Two.' }, { role: 'user', content: '' },
    ] });
    expect(input.messages).toEqual([{ role: 'user', content: [{ text: 'One.' }, { text: 'Two.' }] }]);
  });

  it('sends images as bytes with their format, and s3:// images as S3 locations', () => {
    const input = converseInput({ ...base, messages: [{ role: 'user', content: [
      { type: 'text', text: 'Compare.' },
      { type: 'image', url: `data:image/png;base64,${PNG}` },
      { type: 'image', url: 's3://my-bucket/photos/cat.jpg' },
    ] }] });
    const blocks = input.messages![0]!.content!;
    expect(blocks[1]!.image!.format).toBe('png');
    expect(Buffer.from(blocks[1]!.image!.source!.bytes!).toString('base64')).toBe(PNG);
    expect(blocks[2]).toEqual({ image: { format: 'jpeg', source: { s3Location: { uri: 's3://my-bucket/photos/cat.jpg' } } } });
  });

  it('refuses an image by https URL as unsupported (Converse takes bytes or S3), sending nothing', () => {
    const err = failure(() => converseInput({ ...base, messages: [{ role: 'user', content: [{ type: 'image', url: 'https://example.com/cat.png' }] }] }));
    expect(err).toMatchObject({ kind: 'unsupported', code: 'unsupported_content' });
  });

  it('sends files as documents with a Converse-safe, unique name, and refuses a format Converse cannot read', () => {
    const pdf = Buffer.from('%PDF-1.4 tiny').toString('base64');
    const input = converseInput({ ...base, messages: [{ role: 'user', content: [
      { type: 'text', text: 'Summarise.' },
      { type: 'file', data: pdf, mediaType: 'application/pdf', filename: 'Q3 report (final).v2.pdf' },
      { type: 'file', data: pdf, mediaType: 'text/markdown', filename: 'Q3 report (final).v2.md' },
    ] }] });
    const docs = input.messages![0]!.content!.slice(1).map((b) => ({ format: b.document!.format, name: b.document!.name }));
    expect(docs).toEqual([{ format: 'pdf', name: 'Q3 report (final)-v2' }, { format: 'md', name: 'Q3 report (final)-v2 (2)' }]);
    for (const { name } of docs) expect(name).toMatch(/^[A-Za-z0-9()[\]-]+(?: [A-Za-z0-9()[\]-]+)*$/);
    expect(failure(() => converseInput({ ...base, messages: [{ role: 'user', content: [{ type: 'file', data: pdf, mediaType: 'application/zip' }] }] })).kind).toBe('unsupported');
  });
});

describe('bedrock request: tools and structured output', () => {
  it('sends toolSpec with the JSON schema under inputSchema.json, and no toolChoice unless asked', () => {
    const input = converseInput({ ...base, tools: [weather] });
    expect(input.toolConfig).toEqual({ tools: [{ toolSpec: { name: 'get_weather', description: weather.description, inputSchema: { json: weather.parameters } } }] });
  });

  it.each([
    ['auto', { auto: {} }],
    ['required', { any: {} }],
    [{ name: 'get_weather' }, { tool: { name: 'get_weather' } }],
  ] as const)('maps toolChoice %j to %j', (choice, expected) => {
    expect(converseInput({ ...base, tools: [weather], toolChoice: choice as never }).toolConfig!.toolChoice).toEqual(expected);
  });

  it("leaves the tools out for toolChoice none (Converse has no 'none'), unless the history needs a toolConfig", () => {
    expect(converseInput({ ...base, tools: [weather], toolChoice: 'none' })).not.toHaveProperty('toolConfig');
    const withHistory = converseInput({ ...base, tools: [weather], toolChoice: 'none', messages: [
      ...base.messages,
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', toolCallId: 'call_1', content: '21C' },
    ] });
    expect(withHistory.toolConfig).toEqual({ tools: [expect.objectContaining({ toolSpec: expect.objectContaining({ name: 'get_weather' }) })] });
  });

  it('defines stand-in tools when the history calls tools the request does not define', () => {
    const input = converseInput({ ...base, messages: [
      ...base.messages,
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'lookup', arguments: {} }] },
      { role: 'tool', toolCallId: 'call_1', content: 'found' },
    ] });
    expect(input.toolConfig).toEqual({ tools: [{ toolSpec: { name: 'lookup', description: expect.any(String), inputSchema: { json: { type: 'object', properties: {} } } } }] });
  });

  it('closes a strict tool\'s schema and sends strict', () => {
    const spec = converseInput({ ...base, tools: [{ ...weather, strict: true }] }).toolConfig!.tools![0]!.toolSpec!;
    expect(spec).toMatchObject({ strict: true, inputSchema: { json: { additionalProperties: false } } });
  });

  const schema = { type: 'object', properties: { city: { type: 'string' }, tempC: { type: 'number' } }, required: ['city', 'tempC'] };
  const structured: ProviderRequest = { ...base, responseFormat: { type: 'json_schema', name: 'weather', schema, strict: true } };

  it('asks Claude 4.5 and newer for the schema through outputConfig.textFormat, the schema as a JSON string with objects closed', () => {
    const input = converseInput(structured);
    expect(input.outputConfig!.textFormat).toEqual({ type: 'json_schema', structure: { jsonSchema: { name: 'weather', schema: JSON.stringify({ ...schema, additionalProperties: false }) } } });
    expect(input).not.toHaveProperty('toolConfig');
  });

  it('asks an older model for the schema through the forced json tool', () => {
    const input = converseInput({ ...structured, model: 'anthropic.claude-3-5-sonnet-20241022-v2:0' });
    expect(input).not.toHaveProperty('outputConfig');
    expect(input.toolConfig).toEqual({ tools: [{ toolSpec: { name: 'json', description: expect.any(String), inputSchema: { json: { ...schema, additionalProperties: false } } } }], toolChoice: { tool: { name: 'json' } } });
  });

  it('cannot carry a forced-tool schema together with tools of the request: unsupported', () => {
    expect(failure(() => converseInput({ ...structured, model: 'meta.llama3-70b-instruct-v1:0', tools: [weather] })).kind).toBe('unsupported');
  });

  it('asks for JSON without a schema in the system prompt', () => {
    expect(converseInput({ ...base, responseFormat: { type: 'json' } }).system).toEqual([{ text: JSON_INSTRUCTION }]);
  });
});

describe('bedrock request: reasoning', () => {
  it('turns on adaptive thinking with the effort for Claude 4.6 and newer, and drops the sampling settings', () => {
    const input = converseInput({ ...base, model: CLAUDE_46, reasoning: { effort: 'minimal' }, temperature: 0.3, topP: 0.5, maxTokens: 2000 });
    expect(input.additionalModelRequestFields).toEqual({ thinking: { type: 'adaptive' } });
    expect(input.outputConfig).toEqual({ effort: 'low' });
    expect(input.inferenceConfig).toEqual({ maxTokens: 2000 });
  });

  it('gives Claude 3.7 to 4.5 a thinking budget below maxTokens, and none when that leaves less than 1024', () => {
    expect(converseInput({ ...base, reasoning: { effort: 'high' }, maxTokens: 8000 }).additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 4096 } });
    expect(converseInput({ ...base, reasoning: { effort: 'high' }, maxTokens: 3000 }).additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 2999 } });
    expect(converseInput({ ...base, reasoning: { effort: 'high' }, maxTokens: 1000 })).not.toHaveProperty('additionalModelRequestFields');
  });

  it('leaves thinking off where Claude refuses it: a forced tool, or a tool turn from another API', () => {
    expect(converseInput({ ...base, reasoning: { effort: 'low' }, tools: [weather], toolChoice: 'required' })).not.toHaveProperty('additionalModelRequestFields');
    const fromOpenAI = converseInput({ ...base, reasoning: { effort: 'low' }, tools: [weather], messages: [
      ...base.messages,
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', toolCallId: 'call_1', content: '21C' },
    ] });
    expect(fromOpenAI).not.toHaveProperty('additionalModelRequestFields');
  });

  it('replays a Bedrock reasoning turn verbatim, redacted bytes included, so thinking stays on in the tool loop', () => {
    const redacted = Buffer.from('opaque').toString('base64');
    const input = converseInput({ ...base, reasoning: { effort: 'low' }, tools: [weather], messages: [
      ...base.messages,
      { role: 'assistant', content: null, toolCalls: [{ id: 'tooluse_1', name: 'get_weather', arguments: { city: 'Paris' } }], providerParts: { api: 'bedrock', blocks: [
        { reasoningContent: { reasoningText: { text: 'Look it up.', signature: 'sig-1' } } },
        { reasoningContent: { redactedContent: { base64: redacted } } },
        { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } },
      ] } },
      { role: 'tool', toolCallId: 'tooluse_1', content: '21C' },
    ] });
    const assistant = input.messages![1]!.content!;
    expect(assistant[0]).toEqual({ reasoningContent: { reasoningText: { text: 'Look it up.', signature: 'sig-1' } } });
    expect(Buffer.from(assistant[1]!.reasoningContent!.redactedContent!).toString()).toBe('opaque');
    expect(input.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 1024 } });
  });

  it('maps no reasoning for models other than Claude', () => {
    expect(converseInput({ ...base, model: 'us.amazon.nova-pro-v1:0', reasoning: { effort: 'high' } })).not.toHaveProperty('additionalModelRequestFields');
  });
});

describe('prompt-cache breakpoints as cachePoint blocks', () => {
  const point = { cachePoint: { type: 'default' } };
  const hour = { cachePoint: { type: 'default', ttl: '1h' } };
  const cached: ProviderRequest = {
    model: CLAUDE_45,
    messages: [
      { role: 'system', content: 'You are terse.', cache: {} },
      { role: 'user', content: [{ type: 'text', text: 'Long document.', cache: { ttl: '1h' } }, { type: 'text', text: 'Question?' }] },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }], cache: {} },
      { role: 'tool', toolCallId: 'call_1', content: '18 C', cache: {} },
      { role: 'user', content: 'And tomorrow?', cache: {} },
    ],
    tools: [{ ...weather, cache: {} }],
  };

  it('puts a cachePoint after each marked system block, content part, message and tool, with its ttl', () => {
    const input = converseInput(cached);
    expect(input.system).toEqual([{ text: 'You are terse.' }, point]);
    expect(input.messages).toEqual([
      { role: 'user', content: [{ text: 'Long document.' }, hour, { text: 'Question?' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: bedrockToolId('call_1'), name: 'get_weather', input: { city: 'Paris' } } }, point] },
      { role: 'user', content: [{ toolResult: { toolUseId: bedrockToolId('call_1'), content: [{ text: '18 C' }], status: 'success' } }, point, { text: 'And tomorrow?' }, point] },
    ]);
    expect(input.toolConfig!.tools).toEqual([expect.objectContaining({ toolSpec: expect.objectContaining({ name: 'get_weather' }) }), point]);
  });

  it('sends no cachePoint to a model without prompt caching on Bedrock (Converse would refuse it)', () => {
    const input = converseInput({ ...cached, model: 'meta.llama3-70b-instruct-v1:0' });
    expect(JSON.stringify(input)).not.toContain('cachePoint');
    expect(input.system).toEqual([{ text: 'You are terse.' }]);
  });

  it('adds nothing for a request without breakpoints', () => {
    expect(JSON.stringify(converseInput(base))).not.toContain('cachePoint');
  });
});

describe('bedrock: the gateway client\'s anthropic-beta header', () => {
  it('goes to Claude as additionalModelRequestFields.anthropic_beta, beside its thinking; never to another model', () => {
    const beta = 'interleaved-thinking-2025-05-14, context-1m-2025-08-07';
    expect(converseInput({ ...base, anthropicBeta: beta }).additionalModelRequestFields).toEqual({ anthropic_beta: ['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'] });
    expect(converseInput({ ...base, model: CLAUDE_46, reasoning: { effort: 'low' }, anthropicBeta: beta }).additionalModelRequestFields)
      .toEqual({ thinking: { type: 'adaptive' }, anthropic_beta: ['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'] });
    expect(converseInput({ ...base, model: 'amazon.nova-pro-v1:0', anthropicBeta: beta })).not.toHaveProperty('additionalModelRequestFields');
    expect(converseInput({ ...base, anthropicBeta: ' , ' })).not.toHaveProperty('additionalModelRequestFields');
  });
});
