import { messageText } from '../../../src/types.js';
import type { Message, ToolChoice } from '../../../src/types.js';

/** What the rule needs of a tool: its name. */
export interface NamedTool {
  name: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when `text` names the tool: its name, any case, not inside a longer identifier. */
export function mentions(text: string, name: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9_-])${escape(name)}($|[^A-Za-z0-9_-])`, 'i').test(text);
}

/**
 * Which tools the simulated model calls, in the order of the `tools` list; [] means it answers in text.
 *
 * - no tools, or `none`: none.
 * - a named tool: that one (one call).
 * - `required`: the tools the last message names, if it is a user turn that names any; else the first tool.
 * - `auto` (the default): only when the last message is a user turn (after a tool result the model
 *   answers in text): the tools it names; if it names none and there is exactly one tool, that one;
 *   otherwise none.
 * - `parallel: false` keeps only the first of them.
 */
export function chooseTools<T extends NamedTool>(
  tools: readonly T[] | undefined,
  toolChoice: ToolChoice | undefined,
  messages: readonly Message[],
  parallel = true,
): T[] {
  if (!tools?.length || toolChoice === 'none') return [];
  if (typeof toolChoice === 'object') {
    const named = tools.find((t) => t.name === toolChoice.name);
    return named ? [named] : [];
  }
  const last = messages.at(-1);
  const text = last?.role === 'user' ? messageText(last) : undefined;
  const named = text === undefined ? [] : tools.filter((t) => mentions(text, t.name));
  let chosen: T[];
  if (toolChoice === 'required') chosen = named.length ? named : [tools[0]!];
  else if (text === undefined) chosen = [];
  else chosen = named.length ? named : tools.length === 1 ? [tools[0]!] : [];
  return parallel ? chosen : chosen.slice(0, 1);
}
