import type { AssistantMessage, Message, ToolCall } from '../../types.js';
import { invalid, isObject, typeName } from './wire-errors.js';

// Output items of an earlier Responses turn that only the Responses API can replay as they are:
// `reasoning` (its `encrypted_content` is the model's own state, opaque to anyone else), and the
// calls of tools the client runs itself that are no function tools (`custom_tool_call` of a
// freeform tool, `local_shell_call`). Codex sends every one of them back on each turn (store:
// false). Shapes: openai/codex codex-rs/protocol/src/models.rs (`ResponseItem`, commit
// 152e7caecdc1050f186f3ec768ec5fb2cfa04923) and the openai SDK's `ResponseInputItem`
// (node_modules/openai/resources/responses/responses.d.ts: ResponseReasoningItem,
// ResponseCustomToolCall, ResponseCustomToolCallOutput, ResponseInputItem.LocalShellCall).

/** Item types an assistant turn keeps verbatim for the Responses API (`providerParts.items`). */
export const OPAQUE_ITEMS: ReadonlySet<string> = new Set(['reasoning', 'custom_tool_call', 'local_shell_call']);

const text = (value: unknown, path: string): string => {
  if (typeof value !== 'string') throw invalid(path, `expected a string, got ${typeName(value)}`, 'invalid_type');
  return value;
};

/**
 * The tool call a `custom_tool_call` or `local_shell_call` item is, for targets that see calls only
 * as a name and arguments: a freeform call's text is `{input}`, a shell call's action its arguments.
 * Undefined for a reasoning item (no call).
 */
export function opaqueCall(item: Record<string, unknown>, path: string): ToolCall | undefined {
  if (item.type === 'custom_tool_call') {
    return { id: text(item.call_id, `${path}.call_id`), name: text(item.name, `${path}.name`), arguments: { input: text(item.input, `${path}.input`) } };
  }
  if (item.type === 'local_shell_call') {
    // call_id on the Responses API; Chat-Completions-era items had only their id.
    const id = typeof item.call_id === 'string' ? item.call_id : text(item.id, `${path}.call_id`);
    if (!isObject(item.action)) throw invalid(`${path}.action`, `expected an object, got ${typeName(item.action)}`, 'invalid_type');
    return { id, name: 'local_shell', arguments: item.action };
  }
  if (item.type === 'reasoning') {
    if (item.encrypted_content !== undefined && item.encrypted_content !== null) text(item.encrypted_content, `${path}.encrypted_content`);
    if (!Array.isArray(item.summary)) throw invalid(`${path}.summary`, `expected an array of summary parts, got ${typeName(item.summary)}`, 'invalid_type');
  }
  return undefined;
}

/**
 * Builds the assistant turns of an input from its items, in order: each turn gathers the items it
 * came from, and a turn with an opaque item among them keeps them all (`providerParts`, replayed
 * verbatim by a Responses target, left out by every other provider).
 */
export class Turns {
  private readonly items = new Map<AssistantMessage, unknown[]>();

  constructor(private readonly messages: Message[]) {}

  /** The open assistant turn an item of kind `kind` joins, or undefined (it starts one). */
  open(kind: 'call' | 'reasoning' | 'message'): AssistantMessage | undefined {
    const last = this.messages.at(-1);
    if (last?.role !== 'assistant') return undefined;
    // Text joins a turn only to follow its reasoning (or its calls, after reasoning); calls and reasoning join any.
    if (kind === 'message') return last.content === null || last.content === '' ? (this.opaque(last) ? last : undefined) : undefined;
    return last;
  }

  /** Records that `raw` is one of `turn`'s items. */
  add(turn: AssistantMessage, raw: unknown): void {
    const list = this.items.get(turn);
    if (list) list.push(raw);
    else this.items.set(turn, [raw]);
  }

  /** Gives each turn with an opaque item its items to replay. */
  finish(): void {
    for (const [turn, items] of this.items) {
      if (this.opaque(turn)) turn.providerParts = { api: 'openai-responses', items };
    }
  }

  private opaque(turn: AssistantMessage): boolean {
    return this.items.get(turn)?.some((i) => OPAQUE_ITEMS.has((i as { type?: unknown }).type as string)) === true;
  }
}
