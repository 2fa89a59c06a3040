import { describe, expect, it } from 'vitest';
import { eventData, nextEventEnd } from './sse-events.js';

describe('SSE events as pass-through streams cut them', () => {
  it('reads the data of an OpenAI event and of an Anthropic named event, fast path or not', () => {
    expect(eventData('data: {"a":1}\n\n')).toBe('{"a":1}');
    expect(eventData('event: message_start\ndata: {"type":"message_start"}\n\n')).toBe('{"type":"message_start"}');
    expect(eventData('event: ping\r\ndata: {"type":"ping"}\r\n\r\n')).toBe('{"type":"ping"}');
    expect(eventData('event: x\ndata: a\ndata: b\n\n')).toBe('a\nb');
    expect(eventData(': comment\n\n')).toBeUndefined();
  });

  it('finds where a named event ends, and waits for one cut in two', () => {
    const text = 'event: a\ndata: 1\n\nevent: b\ndata: 2';
    expect(nextEventEnd(text, 0, false)).toBe(18);
    expect(nextEventEnd(text, 18, false)).toBe(-1);
    expect(nextEventEnd(text, 18, true)).toBe(text.length);
  });
});
