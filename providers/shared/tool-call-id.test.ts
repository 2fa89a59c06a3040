import { describe, expect, it } from 'vitest';
import { anthropicToolId, openAIToolId } from './tool-call-id.js';

describe('tool-call ids across providers', () => {
  it.each([
    ['call_abc123', 'call_abc123'],
    ['toolu_01D7FLrfh4GYq7yT1ULFeyMV', 'toolu_01D7FLrfh4GYq7yT1ULFeyMV'],
    ['call-with-dashes_and_underscores', 'call-with-dashes_and_underscores'],
  ])('passes %s to Anthropic unchanged', (id, expected) => {
    expect(anthropicToolId(id)).toBe(expected);
  });

  it('rewrites an id Anthropic refuses into its charset, the same way every time', () => {
    const id = anthropicToolId('functions.Bash:0');
    expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(id.startsWith('functions_Bash_0_')).toBe(true);
    expect(anthropicToolId('functions.Bash:0')).toBe(id);
  });

  it('keeps two ids that differ only in refused characters apart', () => {
    expect(anthropicToolId('a.b')).not.toBe(anthropicToolId('a:b'));
    expect(anthropicToolId('a.b')).not.toBe('a_b');
  });

  it('gives an empty id a valid one', () => {
    expect(anthropicToolId('')).toMatch(/^[a-zA-Z0-9_-]+$/);
  });

  it('passes ids of up to 40 characters to OpenAI unchanged and shortens longer ones deterministically', () => {
    expect(openAIToolId('toolu_01D7FLrfh4GYq7yT1ULFeyMV')).toBe('toolu_01D7FLrfh4GYq7yT1ULFeyMV');
    const long = `toolu_${'x'.repeat(60)}`;
    expect(openAIToolId(long)).toHaveLength(40);
    expect(openAIToolId(long)).toBe(openAIToolId(long));
    expect(openAIToolId(long)).not.toBe(openAIToolId(`${long}y`));
  });
});
