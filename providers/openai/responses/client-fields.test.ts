import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/types.js';
import type { ProviderRequest } from '../../types.js';
import { responsesBody } from './body.js';

// A gateway client's Responses-only fields (ResponsesFields: what Codex sends besides the router's
// own) in the translated body a Responses target gets, and the freeform calls it replays.

const custom = { type: 'custom', name: 'apply_patch', description: 'Edit files', format: { type: 'grammar', syntax: 'lark', definition: 'start: x' } };
const fields = { reasoning: { summary: 'auto' }, text: { verbosity: 'low' }, client_metadata: { session_id: 's-1' }, tools: [custom, { type: 'local_shell' }] };
const shell = { name: 'shell', parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } } };

describe('responsesBody: a gateway client\'s Responses-only fields', () => {
  it('merges reasoning.summary beside the effort, text.verbosity beside the format, client_metadata, and the client tools after the function tools', () => {
    const request: ProviderRequest = { model: 'gpt-5-codex', messages: [{ role: 'user', content: 'Hi' }], tools: [shell], toolChoice: 'auto', reasoning: { effort: 'medium' }, responseFormat: { type: 'json' }, responsesFields: fields };
    const body = responsesBody(request, 'openai') as unknown as Record<string, unknown>;
    expect(body.reasoning).toEqual({ effort: 'medium', summary: 'auto' });
    expect(body.text).toEqual({ format: { type: 'json_object' }, verbosity: 'low' });
    expect(body.client_metadata).toEqual({ session_id: 's-1' });
    expect((body.tools as Array<{ type: string; name?: string }>).map((t) => t.name ?? t.type)).toEqual(['shell', 'apply_patch', 'local_shell']);
    expect((body.tools as unknown[])[1]).toBe(custom);
    expect(body.tool_choice).toBe('auto');
  });

  it('sends no reasoning keys to a model that does not reason (it refuses reasoning), and nothing without fields', () => {
    const body = responsesBody({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hi' }], responsesFields: fields }, 'openai') as unknown as Record<string, unknown>;
    expect(body).not.toHaveProperty('reasoning');
    expect(body.text).toEqual({ verbosity: 'low' });
    const plain = responsesBody({ model: 'gpt-5-codex', messages: [{ role: 'user', content: 'Hi' }], reasoning: { effort: 'low' } }, 'openai') as unknown as Record<string, unknown>;
    expect(Object.keys(plain).sort()).toEqual(['include', 'input', 'model', 'reasoning', 'store']);
    expect(plain.reasoning).toEqual({ effort: 'low' });
  });

  it('replays a freeform call verbatim and answers it with custom_tool_call_output; a function call\'s result stays function_call_output', () => {
    const call = { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' };
    const messages: Message[] = [
      { role: 'user', content: 'Edit' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_2', name: 'apply_patch', arguments: { input: '*** Begin Patch' } }], providerParts: { api: 'openai-responses', items: [call] } },
      { role: 'tool', toolCallId: 'call_2', content: 'Done' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_3', name: 'shell', arguments: { command: ['ls'] } }] },
      { role: 'tool', toolCallId: 'call_3', content: 'a' },
    ];
    const body = responsesBody({ model: 'gpt-5-codex', messages }, 'openai');
    expect(body.input).toEqual([
      { role: 'user', content: 'Edit' },
      call,
      { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done' },
      { type: 'function_call', call_id: 'call_3', name: 'shell', arguments: '{"command":["ls"]}' },
      { type: 'function_call_output', call_id: 'call_3', output: 'a' },
    ]);
  });
});
