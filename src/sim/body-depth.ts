import type { SimError } from './sim-request.js';

/**
 * The deepest a request body may nest objects and arrays before the simulator reads it. Its
 * readers (schema conversion, the instance generator, prompt assembly) walk bodies by recursion;
 * this keeps any body, from any client, far from the stack's limit. The router itself sends
 * nothing deeper than its own `input.maxDepth` (64 by default) plus the envelope around it.
 */
export const SIM_MAX_BODY_DEPTH = 256;

/** How deep a JSON text nests objects and arrays (strings skipped), read without parsing or recursion. */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) max = depth;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return max;
}

/** An `invalid_request` for a body nested deeper than SIM_MAX_BODY_DEPTH, or undefined. */
export function tooDeep(raw: string): SimError | undefined {
  const depth = jsonTextDepth(raw);
  return depth > SIM_MAX_BODY_DEPTH ? { kind: 'invalid_request', message: `request body nested ${depth} levels deep; at most ${SIM_MAX_BODY_DEPTH} are read` } : undefined;
}
