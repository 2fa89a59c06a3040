import { describe, expect, it } from 'vitest';
import { inputMessages } from '../../../src/gateway/responses/input-items.js';

// Codex's history items as router messages: the items of one assistant turn gathered into it, kept
// verbatim (providerParts) when one of them only the Responses API can replay.

const none = () => undefined;
const reasoning = { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Thinking' }], content: null, encrypted_content: 'gAAAA-1' };
const call = { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'call_1' };
const text = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] };

describe('inputMessages: reasoning and client-tool items', () => {
  it('gathers a reasoning item, its text and its call into one assistant turn that keeps all three', () => {
    const { messages, paths } = inputMessages([{ role: 'user', content: 'Go' }, reasoning, text, call, { type: 'function_call_output', call_id: 'call_1', output: 'a' }], none);
    expect(messages).toEqual([
      { role: 'user', content: 'Go' },
      { role: 'assistant', content: 'Done.', toolCalls: [{ id: 'call_1', name: 'shell', arguments: { command: ['ls'] } }], providerParts: { api: 'openai-responses', items: [reasoning, text, call] } },
      { role: 'tool', toolCallId: 'call_1', content: 'a' },
    ]);
    expect(paths).toEqual(['input[0]', 'input[1]', 'input[4]']);
  });

  it('keeps a reasoning-only turn as empty text, and leaves turns without opaque items as they were', () => {
    expect(inputMessages([{ role: 'user', content: 'Go' }, reasoning], none).messages[1]).toEqual({ role: 'assistant', content: '', providerParts: { api: 'openai-responses', items: [reasoning] } });
    // Text after a plain call starts a turn of its own, as before.
    expect(inputMessages([call, text], none).messages).toEqual([
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'shell', arguments: { command: ['ls'] } }] },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('reads freeform and local shell calls as tool calls of a kept turn, and a freeform output as a tool result', () => {
    const custom = { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' };
    const local = { type: 'local_shell_call', id: 'lsh_1', call_id: 'call_3', status: 'completed', action: { type: 'exec', command: ['ls'] } };
    const { messages } = inputMessages([custom, local, { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done' }], none);
    expect(messages).toEqual([
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_2', name: 'apply_patch', arguments: { input: '*** Begin Patch' } }, { id: 'call_3', name: 'local_shell', arguments: local.action }], providerParts: { api: 'openai-responses', items: [custom, local] } },
      { role: 'tool', toolCallId: 'call_2', content: 'Done' },
    ]);
  });

  it('refuses a reasoning item without its summary array and a freeform call without input, naming the path', () => {
    expect(() => inputMessages([{ type: 'reasoning', encrypted_content: 'x' }], none)).toThrow(/input\[0\]\.summary/);
    expect(() => inputMessages([{ type: 'custom_tool_call', call_id: 'c', name: 'apply_patch' }], none)).toThrow(/input\[0\]\.input/);
  });
});
