import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/types.js';
import { anthropicHistory } from '../anthropic/messages.js';
import { bedrockToolId, converseHistory } from './messages.js';

// Claude's thinking between the Messages API and Bedrock Converse (one model, two wires): the
// blocks cross in order, interleaved thinking included, signatures and redacted data unchanged,
// tool ids made the way each side's tool results make them.

const CLAUDE = { provider: 'bedrock', model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' };
const NOVA = { provider: 'bedrock', model: 'amazon.nova-pro-v1:0' };
const ANTHROPIC = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
const REDACTED = Buffer.from('opaque redacted bytes').toString('base64');
const calls = [{ id: 'toolu_01A', name: 'get_weather', arguments: { city: 'Paris' } }, { id: 'toolu_01B', name: 'get_time', arguments: { tz: 'CET' } }];
const results: Message[] = [{ role: 'tool', toolCallId: 'toolu_01A', content: '21C' }, { role: 'tool', toolCallId: 'toolu_01B', content: '14:00' }];

const fromAnthropic: Message[] = [
  { role: 'user', content: 'Weather and time in Paris?' },
  { role: 'assistant', content: 'Looking.', toolCalls: calls, providerParts: { api: 'anthropic', blocks: [
    { type: 'thinking', thinking: 'Weather first.', signature: 'sig-A' },
    { type: 'text', text: 'Looking.' },
    { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Paris' } },
    { type: 'redacted_thinking', data: REDACTED },
    { type: 'tool_use', id: 'toolu_01B', name: 'get_time', input: { tz: 'CET' } },
  ] } },
  ...results,
];

describe('Anthropic thinking to a Bedrock Claude model', () => {
  it('becomes reasoningContent in the same order, signature and redacted bytes unchanged, tool ids paired', () => {
    const history = converseHistory(fromAnthropic, CLAUDE);
    const [, assistant, tools] = history.messages;
    expect(assistant!.content!.map((b) => Object.keys(b)[0])).toEqual(['reasoningContent', 'text', 'toolUse', 'reasoningContent', 'toolUse']);
    expect(assistant!.content![0]).toEqual({ reasoningContent: { reasoningText: { text: 'Weather first.', signature: 'sig-A' } } });
    expect(Buffer.from(assistant!.content![3]!.reasoningContent!.redactedContent!).toString('base64')).toBe(REDACTED);
    expect(assistant!.content![2]!.toolUse).toEqual({ toolUseId: bedrockToolId('toolu_01A'), name: 'get_weather', input: { city: 'Paris' } });
    expect(tools!.content!.map((b) => b.toolResult!.toolUseId)).toEqual([bedrockToolId('toolu_01A'), bedrockToolId('toolu_01B')]);
    expect(history.toolTurnWithoutReasoning).toBe(false);
  });

  it('is left out for another Bedrock model: the turn goes as its text and tool calls', () => {
    const history = converseHistory(fromAnthropic, NOVA);
    expect(history.messages[1]!.content!.map((b) => Object.keys(b)[0])).toEqual(['text', 'toolUse', 'toolUse']);
    expect(history.toolTurnWithoutReasoning).toBe(true);
  });

  it('goes as text and tool calls when a block has no Converse form (a server tool)', () => {
    const parts = { api: 'anthropic' as const, blocks: [{ type: 'thinking', thinking: 'Search.', signature: 'sig-S' }, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }] };
    const history = converseHistory([fromAnthropic[0]!, { role: 'assistant', content: 'Found it.', providerParts: parts }], CLAUDE);
    expect(history.messages[1]!.content).toEqual([{ text: 'Found it.' }]);
  });
});

describe('Bedrock Claude reasoning to the Messages API', () => {
  const fromBedrock: Message[] = [
    fromAnthropic[0]!,
    { role: 'assistant', content: null, toolCalls: [{ id: 'tooluse_A1', name: 'get_weather', arguments: { city: 'Paris' } }, { id: 'tooluse_B2', name: 'get_time', arguments: { tz: 'CET' } }], providerParts: { api: 'bedrock', blocks: [
      { reasoningContent: { reasoningText: { text: 'Weather first.', signature: 'sig-B' } } },
      { toolUse: { toolUseId: 'tooluse_A1', name: 'get_weather', input: { city: 'Paris' } } },
      { reasoningContent: { redactedContent: { base64: REDACTED } } },
      { toolUse: { toolUseId: 'tooluse_B2', name: 'get_time', input: { tz: 'CET' } } },
    ] } },
    { role: 'tool', toolCallId: 'tooluse_A1', content: '21C' },
    { role: 'tool', toolCallId: 'tooluse_B2', content: '14:00' },
  ];

  it('becomes thinking and redacted_thinking blocks in the same order, signatures unchanged, tool ids paired', () => {
    const history = anthropicHistory(fromBedrock, ANTHROPIC);
    expect(history.messages[1]!.content).toEqual([
      { type: 'thinking', thinking: 'Weather first.', signature: 'sig-B' },
      { type: 'tool_use', id: 'tooluse_A1', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'redacted_thinking', data: REDACTED },
      { type: 'tool_use', id: 'tooluse_B2', name: 'get_time', input: { tz: 'CET' } },
    ]);
    expect((history.messages[2]!.content as Array<{ tool_use_id: string }>).map((b) => b.tool_use_id)).toEqual(['tooluse_A1', 'tooluse_B2']);
    expect(history.toolTurnWithoutThinking).toBe(false);
  });

  it('and round-trips: Anthropic -> Converse -> Anthropic gives the blocks back as they were', () => {
    const converse = converseHistory(fromAnthropic, CLAUDE).messages[1]!.content!;
    const blocks = converse.map((b) => (b.reasoningContent?.redactedContent ? { reasoningContent: { redactedContent: { base64: Buffer.from(b.reasoningContent.redactedContent).toString('base64') } } } : b));
    const back = anthropicHistory([fromAnthropic[0]!, { role: 'assistant', content: 'Looking.', toolCalls: calls, providerParts: { api: 'bedrock', blocks } }], ANTHROPIC);
    expect(back.messages[1]!.content).toEqual((fromAnthropic[1] as { providerParts: { blocks: unknown[] } }).providerParts.blocks);
  });
});
