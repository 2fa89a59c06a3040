import type { Call } from '../policy/state/call.js';
import type { ChatRequest } from '../types.js';
import { toJSONSchema } from '../convert/schema-input.js';

/** True when a value cannot be made into the JSON a provider is sent (too deep, a cycle, a throwing toJSON). */
function unsendable(value: unknown, convert: (v: never) => unknown = (v) => v): boolean {
  try {
    JSON.stringify(convert(value as never));
    return false;
  } catch {
    return true;
  }
}

/**
 * The parameter of a chat call that could not be made into a request, as a path into the caller's
 * request (`messages[2]`, `tools[0].parameters`, `responseFormat.schema`,
 * `providerOptions.openai.metadata`): the first part whose schema conversion or JSON encoding
 * throws. Asked only after a failure before anything was sent; undefined when no one part is to blame.
 */
export function unsendableChatParam(call: Call): string | undefined {
  const request = call.request as ChatRequest;
  const messages = request.messages ?? [];
  for (let i = 0; i < messages.length; i++) if (unsendable(messages[i])) return `messages[${i}]`;
  const tools = request.tools ?? [];
  for (let i = 0; i < tools.length; i++) if (unsendable(tools[i]!.parameters, toJSONSchema)) return `tools[${i}].parameters`;
  if (request.responseFormat?.type === 'json_schema' && unsendable(request.responseFormat.schema, toJSONSchema)) return 'responseFormat.schema';
  for (const [owner, options] of Object.entries(request.providerOptions ?? {})) {
    for (const [key, value] of Object.entries(options ?? {})) if (unsendable(value)) return `providerOptions.${owner}.${key}`;
  }
  return undefined;
}
