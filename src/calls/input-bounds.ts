import { DEFAULTS } from '../config/defaults.js';
import { isZodSchema } from '../convert/schema-input.js';

/**
 * How far a request's free-form JSON may reach: every field the router (or an SDK) walks or
 * serialises without knowing its shape. A deeper or larger one is refused at validation, before
 * anything else touches it, so no later step (schema conversion, token estimation, the SDK's
 * JSON.stringify, the cache key) can overflow the stack or run unbounded on a caller's input.
 */
export interface InputBounds {
  /** Nesting of objects and arrays inside one field (the field itself is level 1). */
  maxDepth: number;
  /** Length of one field written as JSON, in characters. */
  maxChars: number;
}

export const DEFAULT_INPUT_BOUNDS: InputBounds = Object.freeze({ maxDepth: DEFAULTS.input.maxDepth, maxChars: DEFAULTS.input.maxChars });

/** A field over a bound: its path (`tools[0].parameters`) and which bound. */
export interface BoundProblem {
  path: string;
  message: string;
}

type Measure = { ok: true } | { ok: false; reason: 'depth' | 'size' };

/**
 * Walks one value without recursion (an explicit stack, so a nesting of a million levels costs a
 * loop, not the call stack), stopping at the first bound it passes. Counts the length the value
 * would have as JSON, without building the text. A cycle (a library caller's object pointing at
 * itself) ends at the depth bound.
 */
export function measureJson(value: unknown, bounds: InputBounds): Measure {
  let chars = 0;
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v === 'string') chars += v.length + 2;
    else if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') chars += String(v).length;
    else if (v === null || v === undefined) chars += 4;
    else if (typeof v === 'object') {
      if (depth + 1 > bounds.maxDepth) return { ok: false, reason: 'depth' };
      if (Array.isArray(v)) {
        chars += 2 + Math.max(0, v.length - 1);
        if (chars > bounds.maxChars) return { ok: false, reason: 'size' };
        for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1 });
      } else {
        chars += 2;
        for (const key in v) {
          if (!Object.hasOwn(v, key)) continue;
          chars += key.length + 4;
          if (chars > bounds.maxChars) return { ok: false, reason: 'size' };
          stack.push({ v: (v as Record<string, unknown>)[key], depth: depth + 1 });
        }
      }
    } else chars += 4;
    if (chars > bounds.maxChars) return { ok: false, reason: 'size' };
  }
  return { ok: true };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every free-form JSON field of a chat request, with its path: what the bounds apply to. */
function* freeFormFields(request: Record<string, unknown>): Generator<[string, unknown]> {
  if (Array.isArray(request.tools)) {
    for (let i = 0; i < request.tools.length; i++) {
      const tool = request.tools[i];
      // A zod schema is the application's code, not input: it is converted by zod, not walked here.
      if (isRecord(tool) && tool.parameters !== undefined && !isZodSchema(tool.parameters)) yield [`tools[${i}].parameters`, tool.parameters];
    }
  }
  const format = request.responseFormat;
  if (isRecord(format) && format.schema !== undefined && !isZodSchema(format.schema)) yield ['responseFormat.schema', format.schema];
  if (isRecord(request.providerOptions)) {
    for (const [provider, options] of Object.entries(request.providerOptions)) {
      if (!isRecord(options)) {
        yield [`providerOptions.${provider}`, options];
        continue;
      }
      // Named per option, so the gateway can name the body field it came from (`metadata`).
      for (const [key, value] of Object.entries(options)) yield [`providerOptions.${provider}.${key}`, value];
    }
  }
  if (Array.isArray(request.messages)) {
    for (let i = 0; i < request.messages.length; i++) {
      const m = request.messages[i];
      if (!isRecord(m) || m.role !== 'assistant') continue;
      if (Array.isArray(m.toolCalls)) {
        for (let j = 0; j < m.toolCalls.length; j++) {
          const call = m.toolCalls[j];
          if (isRecord(call) && call.arguments !== undefined) yield [`messages[${i}].toolCalls[${j}].arguments`, call.arguments];
        }
      }
      if (m.providerParts !== undefined) yield [`messages[${i}].providerParts`, m.providerParts];
    }
  }
}

/**
 * The free-form JSON fields of a chat request (tool parameter schemas, the output schema,
 * `providerOptions`, tool call arguments and provider parts in the history) that are nested deeper
 * or written longer than `bounds` allow, each named by its path.
 */
export function inputBoundProblems(request: Record<string, unknown>, bounds: InputBounds = DEFAULT_INPUT_BOUNDS): BoundProblem[] {
  const problems: BoundProblem[] = [];
  for (const [path, value] of freeFormFields(request)) {
    const measured = measureJson(value, bounds);
    if (measured.ok) continue;
    problems.push({
      path,
      message: measured.reason === 'depth'
        ? `nested deeper than ${bounds.maxDepth} levels of objects and arrays (input.maxDepth)`
        : `longer than ${bounds.maxChars} characters as JSON (input.maxChars)`,
    });
  }
  return problems;
}

/**
 * How deep a provider's answer may nest (a `responseFormat` object, a tool call's arguments). Not
 * the caller's to set: it keeps a model's output from overflowing the stack of whoever serialises
 * it next (the gateway, the cache, an application's JSON.stringify), far above any real answer.
 */
export const ANSWER_MAX_DEPTH = 256;

/** True when a value nests objects and arrays deeper than `maxDepth` levels (walked without recursion). */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const measured = measureJson(value, { maxDepth, maxChars: Infinity });
  return !measured.ok;
}
