import { describe, expect, it } from 'vitest';
import { autoBreakpoints, hasBreakpoint } from '../../src/decide/auto-breakpoints.js';
import type { CacheBreakpoint, Message } from '../../src/types.js';

type T = { name: string; cache?: CacheBreakpoint };
const tool = (name: string): T => ({ name });

describe('autoBreakpoints', () => {
  it('marks the last tool, the last non-empty system message and the last user or tool turn, copying only those', () => {
    const messages: Message[] = [
      { role: 'system', content: 'rules' }, { role: 'developer', content: '  ' }, { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' }, { role: 'user', content: [{ type: 'text', text: 'three' }] }, { role: 'assistant', content: 'prefill' },
    ];
    const tools = [tool('a'), tool('b')];
    const out = autoBreakpoints(messages, tools)!;
    expect(out.tools).toEqual([{ name: 'a' }, { name: 'b', cache: {} }]);
    expect(out.messages.map((m) => m.cache ?? null)).toEqual([{}, null, null, null, {}, null]);
    expect(out.messages[2]).toBe(messages[2]);
    expect(out.tools![0]).toBe(tools[0]);
    // The caller's objects are untouched.
    expect(messages[0]!.cache).toBeUndefined();
    expect(tools[1]).toEqual({ name: 'b' });
  });

  it('places at most three, and none where there is nothing to mark', () => {
    expect(autoBreakpoints([{ role: 'assistant', content: 'x' }], undefined)).toBeUndefined();
    const out = autoBreakpoints([{ role: 'user', content: 'hi' }], [])!;
    expect(out.messages).toEqual([{ role: 'user', content: 'hi', cache: {} }]);
    expect(out.tools).toEqual([]);
  });

  it('leaves a request alone when the caller set any breakpoint: on a tool, a message or a part', () => {
    expect(autoBreakpoints([{ role: 'user', content: 'hi' }], [{ name: 'a', cache: {} }])).toBeUndefined();
    expect(autoBreakpoints([{ role: 'tool', toolCallId: 'c', content: 'r', cache: { ttl: '1h' } }], undefined)).toBeUndefined();
    const part: Message = { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b', cache: {} }] };
    expect(hasBreakpoint([part], undefined)).toBe(true);
    expect(autoBreakpoints([part], undefined)).toBeUndefined();
    expect(hasBreakpoint([{ role: 'user', content: 'hi' }], [tool('a')])).toBe(false);
  });
});
