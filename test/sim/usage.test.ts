import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { promptTokens } from '../../providers/shared/answers/index.js';
import { anthropicClient, openAIClient, useSimulators, user } from './helpers.js';

const start = useSimulators();
const messages = user('Summarise the quarterly report in three bullet points, please.');
const total = promptTokens(messages);

describe('prompt cache usage', () => {
  const promptCache = { readShare: 0.5, writeShare: 0.25 };

  it('OpenAI reports cached_tokens within prompt_tokens, plain and streamed', async () => {
    const client = openAIClient(await start({ providers: { openai: { type: 'openai', promptCache } } }));
    const res = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(res.usage).toMatchObject({ prompt_tokens: total, prompt_tokens_details: { cached_tokens: Math.floor(total / 2), cache_write_tokens: Math.floor(total / 4) } });
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true, stream_options: { include_usage: true } });
    let usage: any;
    for await (const chunk of stream) usage = chunk.usage ?? usage;
    expect(usage).toEqual(res.usage);
  });

  it('Anthropic reports cache reads and writes apart from input_tokens, which is the uncached rest', async () => {
    const client = anthropicClient(await start({ providers: { anthropic: { type: 'anthropic', promptCache } } }));
    const res = await client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 300, messages });
    const read = Math.floor(total / 2);
    const written = Math.floor(total / 4);
    expect(res.usage).toMatchObject({
      input_tokens: total - read - written, cache_read_input_tokens: read, cache_creation_input_tokens: written,
      cache_creation: { ephemeral_5m_input_tokens: written, ephemeral_1h_input_tokens: 0 },
    });
    const final = await client.messages.stream({ model: 'claude-haiku-4-5', max_tokens: 300, messages }).finalMessage();
    expect(final.usage).toMatchObject({ input_tokens: total - read - written, cache_read_input_tokens: read, cache_creation_input_tokens: written });
  });

  it('caches nothing below minTokens', async () => {
    const client = openAIClient(await start({ providers: { openai: { type: 'openai', promptCache: { readShare: 1, minTokens: total + 1 } } } }));
    const res = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(res.usage!.prompt_tokens_details!.cached_tokens).toBe(0);
  });
});

describe('reasoning tokens', () => {
  it('OpenAI reasoning_effort spends reasoning tokens within completion_tokens, first out of max_completion_tokens', async () => {
    const client = openAIClient(await start());
    const plain = await client.chat.completions.create({ model: 'o4-mini', messages });
    const reasoned = await client.chat.completions.create({ model: 'o4-mini', messages, reasoning_effort: 'medium' });
    expect(reasoned.usage!.completion_tokens_details!.reasoning_tokens).toBe(128);
    expect(reasoned.usage!.completion_tokens).toBe(plain.usage!.completion_tokens + 128);
    expect(reasoned.choices[0]!.message.content).toBe(plain.choices[0]!.message.content);
    const starved = await client.chat.completions.create({ model: 'o4-mini', messages, reasoning_effort: 'high', max_completion_tokens: 100 });
    expect(starved.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: '' } });
    expect(starved.usage).toMatchObject({ completion_tokens: 100, completion_tokens_details: { reasoning_tokens: 100 } });
  });

  it('Anthropic adaptive thinking spends the effort\'s tokens, default high', async () => {
    const client = anthropicClient(await start());
    const res = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 2_000, messages, thinking: { type: 'adaptive' } } as Anthropic.MessageCreateParamsNonStreaming);
    expect((res.usage as any).output_tokens_details).toEqual({ thinking_tokens: 512 });
    const omitted = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 2_000, messages, thinking: { type: 'adaptive', display: 'omitted' } } as any);
    expect(omitted.content[0]).toMatchObject({ type: 'thinking', thinking: '' });
  });
});
