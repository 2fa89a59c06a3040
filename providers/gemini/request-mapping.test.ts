import { describe, expect, it } from 'vitest';
import { RouterError } from '../../src/errors.js';
import type { Message } from '../../src/types.js';
import type { ProviderRequest } from '../types.js';
import { FOREIGN_SIGNATURE } from './messages.js';
import { geminiBody } from './request-body.js';
import { MAX_INLINED_NODES, geminiJsonSchema, geminiOpenApiSchema } from './schema.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WEATHER = { name: 'get_weather', description: 'Weather in a city', parameters: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'], additionalProperties: false } };
const ask = (content: Message['content'] = 'Hi'): Message => ({ role: 'user', content } as Message);
const body = (request: Partial<ProviderRequest>) => geminiBody({ model: 'gemini-2.5-flash', messages: [ask()], ...request });

function refusal(fn: () => unknown): RouterError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(RouterError);
    return err as RouterError;
  }
  throw new Error('expected a refusal');
}

describe('Gemini request mapping: messages', () => {
  it('hoists system and developer messages to systemInstruction and names turns user and model', () => {
    const out = body({ messages: [{ role: 'system', content: 'Be brief.' }, ask('Hi'), { role: 'assistant', content: 'Hello!' }, { role: 'developer', content: 'No emoji.' }, ask('And?')] });
    expect(out.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }, { text: 'No emoji.' }] });
    expect(out.contents).toEqual([
      { role: 'user', parts: [{ text: 'Hi' }] },
      { role: 'model', parts: [{ text: 'Hello!' }] },
      { role: 'user', parts: [{ text: 'And?' }] },
    ]);
  });

  it('merges consecutive turns of one role and drops empty ones', () => {
    const out = body({ messages: [ask('a'), ask('b'), { role: 'assistant', content: '' }, ask('c')] });
    expect(out.contents).toEqual([{ role: 'user', parts: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] }]);
  });

  it('sends images inline from data: URLs and by URL with the type read from the file name', () => {
    const out = body({ messages: [ask([{ type: 'text', text: 'What is it?' }, { type: 'image', url: `data:image/png;base64,${PNG}` }, { type: 'image', url: 'https://example.com/cat.JPG?size=2', detail: 'high' }])] });
    expect(out.contents[0]!.parts).toEqual([
      { text: 'What is it?' },
      { inlineData: { mimeType: 'image/png', data: PNG } },
      { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/cat.JPG?size=2' } },
    ]);
  });

  it('sends PDF, text and audio files inline', () => {
    const out = body({ messages: [ask([{ type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'a.pdf' }, { type: 'file', data: 'aGk=', mediaType: 'text/plain' }, { type: 'file', data: 'UklGRg==', mediaType: 'audio/wav' }])] });
    expect(out.contents[0]!.parts).toEqual([
      { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
      { inlineData: { mimeType: 'text/plain', data: 'aGk=' } },
      { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
    ]);
  });

  it.each([
    ['a GIF (other providers take it)', { type: 'image', url: 'data:image/gif;base64,R0lGODlh' }, 'unsupported'],
    ['an image URL whose name gives no type', { type: 'image', url: 'https://example.com/render?id=7' }, 'unsupported'],
    ['a zip file', { type: 'file', data: 'UEs=', mediaType: 'application/zip' }, 'unsupported'],
    ['a BMP (no provider takes it)', { type: 'image', url: 'data:image/bmp;base64,Qk0=' }, 'invalid_request'],
    ['a file: URL', { type: 'image', url: 'file:///etc/passwd' }, 'invalid_request'],
  ])('refuses %s as %s', (_what, part, kind) => {
    expect(refusal(() => body({ messages: [ask([part as never])] })).kind).toBe(kind);
  });
});

describe('Gemini request mapping: tools', () => {
  it('declares tools with their JSON Schema (unsupported keywords dropped) on 2.5 and newer', () => {
    const out = body({ tools: [WEATHER] });
    expect(out.tools).toEqual([{ functionDeclarations: [{
      name: 'get_weather', description: 'Weather in a city',
      parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    }] }]);
    expect(out.toolConfig).toBeUndefined();
  });

  it('declares tools with the OpenAPI subset before 2.5, and a tool without arguments with no parameters', () => {
    const out = body({ model: 'gemini-2.0-flash', tools: [WEATHER, { name: 'now', parameters: { type: 'object', properties: {} } }] });
    expect(out.tools![0]!.functionDeclarations).toEqual([
      { name: 'get_weather', description: 'Weather in a city', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING', minLength: 1 } }, required: ['city'] } },
      { name: 'now' },
    ]);
  });

  it.each([
    ['none', { functionCallingConfig: { mode: 'NONE' } }],
    ['required', { functionCallingConfig: { mode: 'ANY' } }],
    [{ name: 'get_weather' }, { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } }],
  ] as const)('maps toolChoice %j', (toolChoice, toolConfig) => {
    expect(body({ tools: [WEATHER], toolChoice, parallelToolCalls: false }).toolConfig).toEqual(toolConfig);
  });

  const loop: Message[] = [
    ask('Weather in Paris and Rome?'),
    { role: 'assistant', content: 'Checking.', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }, { id: 'call_2', name: 'get_weather', arguments: { city: 'Rome' } }] },
    { role: 'tool', toolCallId: 'call_1', content: '21C' },
    { role: 'tool', toolCallId: 'call_2', content: 'no data', isError: true },
  ];

  it('sends another provider\'s tool calls as functionCall parts and the results as functionResponse parts of one user turn', () => {
    const out = body({ messages: loop, tools: [WEATHER] });
    expect(out.contents.slice(1)).toEqual([
      { role: 'model', parts: [{ text: 'Checking.' }, { functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { id: 'call_2', name: 'get_weather', args: { city: 'Rome' } } }] },
      { role: 'user', parts: [
        { functionResponse: { id: 'call_1', name: 'get_weather', response: { output: '21C' } } },
        { functionResponse: { id: 'call_2', name: 'get_weather', response: { error: 'no data' } } },
      ] },
    ]);
  });

  it('gives a Gemini 3 turn\'s first foreign call the documented stand-in signature', () => {
    const model = body({ model: 'gemini-3-flash-preview', messages: loop, tools: [WEATHER] }).contents[1]!;
    expect(model.parts[1]).toMatchObject({ functionCall: { id: 'call_1' }, thoughtSignature: FOREIGN_SIGNATURE });
    expect(model.parts[2]!.thoughtSignature).toBeUndefined();
  });

  it('replays Gemini\'s own parts verbatim, signatures included, and answers calls that had no id without one', () => {
    const parts = [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'CikBcsja' }];
    const messages: Message[] = [
      ask('Weather?'),
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_synth', name: 'get_weather', arguments: { city: 'Paris' } }], providerParts: { api: 'gemini', blocks: parts } },
      { role: 'tool', toolCallId: 'call_synth', content: '21C' },
    ];
    const out = body({ model: 'gemini-3-pro-preview', messages, tools: [WEATHER] });
    expect(out.contents[1]).toEqual({ role: 'model', parts });
    expect(out.contents[2]).toEqual({ role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '21C' } } }] });
  });

  it('refuses a tool result that answers no earlier call', () => {
    expect(refusal(() => body({ messages: [ask(), { role: 'tool', toolCallId: 'nope', content: 'x' }] })).kind).toBe('invalid_request');
  });

  it('ignores Anthropic thinking blocks and rebuilds the turn', () => {
    const out = body({ messages: [ask(), { role: 'assistant', content: 'ok', providerParts: { api: 'anthropic', blocks: [{ type: 'thinking', thinking: 'x', signature: 'y' }] } }] });
    expect(out.contents[1]).toEqual({ role: 'model', parts: [{ text: 'ok' }] });
  });
});

describe('Gemini request mapping: generation config', () => {
  it('maps the sampling parameters and drops user', () => {
    expect(body({ maxTokens: 64, temperature: 0.2, topP: 0.9, stop: ['END'], seed: 7, user: 'u1' }).generationConfig).toEqual({
      maxOutputTokens: 64, temperature: 0.2, topP: 0.9, stopSequences: ['END'], seed: 7,
    });
  });

  it('sends no generationConfig for a plain request', () => {
    expect(body({}).generationConfig).toBeUndefined();
  });

  const SCHEMA = { type: 'object', properties: { city: { type: 'string' }, tempC: { type: ['number', 'null'] }, kind: { const: 'weather' } }, required: ['city', 'tempC'], additionalProperties: false };

  it('asks 2.5 and newer for JSON with responseJsonSchema', () => {
    expect(body({ responseFormat: { type: 'json_schema', name: 'w', schema: SCHEMA, strict: true } }).generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object', properties: { city: { type: 'string' }, tempC: { type: ['number', 'null'] }, kind: { enum: ['weather'] } }, required: ['city', 'tempC'], additionalProperties: false },
    });
  });

  it('asks older models for JSON with responseSchema in the OpenAPI subset', () => {
    expect(body({ model: 'gemini-2.0-flash', responseFormat: { type: 'json_schema', name: 'w', schema: SCHEMA, strict: true } }).generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema: { type: 'OBJECT', properties: { city: { type: 'STRING' }, tempC: { type: 'NUMBER', nullable: true }, kind: { enum: ['weather'] } }, required: ['city', 'tempC'] },
    });
  });

  it('asks for schema-less JSON with the mime type alone', () => {
    expect(body({ responseFormat: { type: 'json' } }).generationConfig).toEqual({ responseMimeType: 'application/json' });
  });

  it('cannot carry a JSON answer with tools before Gemini 3, and can on Gemini 3', () => {
    const request = { tools: [WEATHER], responseFormat: { type: 'json' as const } };
    expect(refusal(() => body(request)).kind).toBe('unsupported');
    expect(body({ ...request, model: 'gemini-3-flash-preview' }).generationConfig).toEqual({ responseMimeType: 'application/json' });
  });

  it.each([
    ['gemini-3-flash-preview', 'minimal', { thinkingLevel: 'MINIMAL' }],
    ['gemini-3-flash-preview', 'medium', { thinkingLevel: 'MEDIUM' }],
    ['gemini-3-pro-preview', 'minimal', { thinkingLevel: 'LOW' }],
    ['gemini-3-pro-preview', 'medium', { thinkingLevel: 'HIGH' }],
    ['gemini-2.5-flash', 'minimal', { thinkingBudget: 0 }],
    ['gemini-2.5-flash', 'high', { thinkingBudget: 24576 }],
    ['gemini-2.5-pro', 'minimal', { thinkingBudget: 128 }],
    ['gemini-2.5-flash-lite', 'low', { thinkingBudget: 1024 }],
  ] as const)('sets %s thinking for effort %s', (model, effort, thinkingConfig) => {
    expect(body({ model, reasoning: { effort } }).generationConfig).toEqual({ thinkingConfig });
  });

  it('drops the effort for models without thinking', () => {
    expect(body({ model: 'gemini-2.0-flash', reasoning: { effort: 'high' } }).generationConfig).toBeUndefined();
  });

  it('merges extraBody one level deep, last', () => {
    const out = body({ maxTokens: 10, extraBody: { generationConfig: { topK: 40 }, safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }] } });
    expect(out.generationConfig).toEqual({ maxOutputTokens: 10, topK: 40 });
    expect(out.safetySettings).toEqual([{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }]);
  });
});

describe('Gemini schema subsets', () => {
  const where = { provider: 'gemini', model: 'gemini-2.0-flash' };

  it('keeps $ref and $defs for responseJsonSchema, with no siblings beside a $ref', () => {
    const schema = { $defs: { City: { type: 'object', properties: { name: { type: 'string', pattern: '^[A-Z]' } } } }, type: 'object', properties: { home: { $ref: '#/$defs/City', description: 'dropped' } } };
    expect(geminiJsonSchema(schema)).toEqual({ $defs: { City: { type: 'object', properties: { name: { type: 'string' } } } }, type: 'object', properties: { home: { $ref: '#/$defs/City' } } });
  });

  it('inlines references for the OpenAPI subset, and turns oneOf into anyOf', () => {
    const schema = { definitions: { City: { type: 'string' } }, type: 'object', properties: { at: { $ref: '#/definitions/City' }, v: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } };
    expect(geminiOpenApiSchema(schema, where)).toEqual({ type: 'OBJECT', properties: { at: { type: 'STRING' }, v: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] } } });
  });

  it('cannot carry a recursive schema to the OpenAPI subset', () => {
    const schema = { $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } }, $ref: '#/$defs/Node' };
    expect(refusal(() => geminiOpenApiSchema(schema, where)).kind).toBe('unsupported');
  });

  it('refuses $defs that inline to more than MAX_INLINED_NODES schemas (each using the next twice: 2^40), at once', () => {
    const $defs: Record<string, unknown> = { d40: { type: 'string' } };
    for (let i = 0; i < 40; i++) $defs[`d${i}`] = { type: 'object', properties: { l: { $ref: `#/$defs/d${i + 1}` }, r: { $ref: `#/$defs/d${i + 1}` } } };
    const err = refusal(() => geminiOpenApiSchema({ $defs, $ref: '#/$defs/d0' }, where));
    expect([err.kind, err.message]).toEqual(['unsupported', expect.stringContaining(`inline to more than ${MAX_INLINED_NODES} schemas`)]);
    // Ten doublings stay under the bound and are inlined in full.
    const small = { $defs: { ...$defs, d10: { type: 'string' } }, $ref: '#/$defs/d0' };
    expect(JSON.stringify(geminiOpenApiSchema(small, where)).match(/STRING/g)).toHaveLength(2 ** 10);
  });

  it('drops enums of anything but strings from the OpenAPI subset', () => {
    expect(geminiOpenApiSchema({ type: 'integer', enum: [1, 2] }, where)).toEqual({ type: 'INTEGER' });
  });
});
