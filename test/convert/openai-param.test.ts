import { describe, expect, it } from 'vitest';
import { openAIParam } from '../../src/convert/openai-param.js';

describe('openAIParam', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['maxTokens', {}, 'max_tokens'],
    ['maxTokens', { max_completion_tokens: 0 }, 'max_completion_tokens'],
    ['topP', {}, 'top_p'],
    ['toolChoice', {}, 'tool_choice'],
    ['toolChoice.name', {}, 'tool_choice.name'],
    ['parallelToolCalls', {}, 'parallel_tool_calls'],
    ['responseFormat.schema', {}, 'response_format.json_schema.schema'],
    ['reasoning.effort', {}, 'reasoning_effort'],
    ['chain', {}, 'model'],
    ['tools[3].name', {}, 'tools[3].function.name'],
    ['tools[0].parameters', {}, 'tools[0].function.parameters'],
    ['messages[2].toolCallId', {}, 'messages[2].tool_call_id'],
    ['messages[1].toolCalls[0].arguments', {}, 'messages[1].tool_calls[0].function.arguments'],
    ['messages[1].toolCalls', {}, 'messages[1].tool_calls'],
    ['messages[0].content', {}, 'messages[0].content'],
    ['temperature', {}, 'temperature'],
    ['seed', {}, 'seed'],
  ])('names %s (body %j) %s', (param, body, wire) => {
    expect(openAIParam(param, body)).toBe(wire);
  });
});
