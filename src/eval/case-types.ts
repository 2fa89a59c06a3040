import type { Target } from '../config/index.js';
import type { ChatResult, Message, ReasoningOptions, ResponseFormat, Tool, ToolChoice } from '../types.js';

/** Anything with zod's `safeParse`: a zod schema (any copy of zod), or a JSON Schema converted by the loader. */
export interface SchemaLike {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

/** What a custom scorer receives besides the answer. */
export interface ScoreContext {
  /** The case being scored, normalised. */
  case: EvalCase;
  /** The target that answered. */
  target: Pick<Target, 'provider' | 'model' | 'key'>;
  /** The whole result: finish reason, usage, attempts, latency. */
  result: ChatResult;
}

/** A scorer's verdict: a boolean, a score in 0..1 (passes at `minScore`), or a verdict with a reason. */
export type ScoreResult = boolean | number | { pass: boolean; reason?: string };

/** A custom expectation, TypeScript cases only; may be async. A throw counts as a failed expectation. */
export type Scorer = (answer: string, ctx: ScoreContext) => ScoreResult | Promise<ScoreResult>;

/** Call options a case may set; they override the target's own `maxTokens` / `temperature`. */
export interface CaseOptions {
  maxTokens?: number;
  temperature?: number;
  /**
   * Reasoning effort for reasoning models, as on `router.chat` (`minimal` turns Gemini 2.5 Flash's
   * thinking off; a model without reasoning ignores it).
   */
  reasoning?: ReasoningOptions;
  /** Overall deadline for one call (retries and waits included). */
  timeoutMs?: number;
}

/** What a case expects of an answer, as a user writes it. Every expectation given must hold. */
export interface ExpectInput {
  /** Every string must appear in the answer, ignoring case. */
  contains?: string | string[];
  /** No string may appear in the answer, ignoring case. */
  notContains?: string | string[];
  /** Must match: a pattern string, `{ pattern, flags }`, or (TypeScript cases) a RegExp. */
  regex?: string | { pattern: string; flags?: string } | RegExp;
  /** The trimmed answer must equal this trimmed string exactly (case included). */
  equals?: string;
  /** The answer must be valid JSON (a single ```json fence around the whole answer is tolerated). */
  json?: boolean;
  /** The answer must be JSON matching this schema: zod (TypeScript cases) or JSON Schema. */
  schema?: SchemaLike | Record<string, unknown>;
  /** At most this many characters, after trimming. */
  maxLength?: number;
  /** A custom scorer (TypeScript cases only). */
  score?: Scorer;
  /** The score a numeric scorer must reach to pass. @default 1 */
  minScore?: number;
  /**
   * The answer must call this tool (or every one of these): by name, and with `arguments` given,
   * with at least those arguments (deep equal; other arguments may be there too).
   */
  toolCall?: ToolCallExpectation | ToolCallExpectation[];
  /** With `responseFormat`: the parsed object must hold at least these fields, deep equal. */
  object?: Record<string, unknown>;
  /** A judge model grades the answer against `rubric` (0..1); passes at `minScore`. See docs/eval.md "The judge". */
  judge?: JudgeExpectation;
  /** Cosine similarity of the answer's embedding to the nearest of `to`; passes at `minScore`. */
  similar?: { to: string | string[]; minScore?: number; chain?: string };
  /** The call (retries and waits included) took at most this long. */
  maxLatencyMs?: number;
  /** The call cost at most this much (needs a price for the target: an unpriced answer fails it). */
  maxCostUsd?: number;
}

/** `expect.judge`: what a good answer does, the score it must reach (default 0.7), the judge chain. */
export interface JudgeExpectation {
  rubric: string;
  /** @default 0.7 */
  minScore?: number;
  /** Wins over `--judge-chain` and `eval.judgeChain`. */
  chain?: string;
}

/** A tool call a case expects. */
export interface ToolCallExpectation {
  name: string;
  arguments?: Record<string, unknown>;
}

/** One case as a user writes it, in JSONL or TypeScript. Give `messages` or `prompt` (plus optional `system`). */
export interface CaseInput {
  id: string;
  messages?: Message[];
  prompt?: string;
  system?: string;
  options?: CaseOptions;
  /** Tools the model may call (JSON Schema parameters in JSONL; zod too in TypeScript). */
  tools?: Tool[];
  toolChoice?: ToolChoice;
  /** Ask for JSON (or JSON matching a schema): the answer's object is then checked by `expect.object`. */
  responseFormat?: ResponseFormat;
  expect?: ExpectInput;
  /** The case's weight in its target's score (the weighted mean of pass). @default 1 */
  weight?: number;
  /** Values for the run's prompt templates' `{{var}}` (see `prompts`). */
  vars?: Record<string, string>;
}

/** A prompt variant: `template` is the user turn, with `{{var}}` filled from each case's `vars`. */
export interface PromptVariant {
  id: string;
  template: string;
}

/** Expectations after loading: lists, compiled patterns, schemas ready to use. */
export interface Expectations {
  contains?: string[];
  notContains?: string[];
  regex?: RegExp;
  equals?: string;
  json?: boolean;
  schema?: SchemaLike;
  maxLength?: number;
  score?: Scorer;
  minScore?: number;
  toolCall?: ToolCallExpectation[];
  object?: Record<string, unknown>;
  judge?: { rubric: string; minScore: number; chain?: string };
  similar?: { to: string[]; minScore: number; chain?: string };
  maxLatencyMs?: number;
  maxCostUsd?: number;
}

/** A validated case, ready to run. It is itself a valid `CaseInput`, so normalising twice changes nothing. */
export interface EvalCase {
  id: string;
  messages: Message[];
  options: CaseOptions;
  tools?: Tool[];
  toolChoice?: ToolChoice;
  responseFormat?: ResponseFormat;
  expect: Expectations;
  weight: number;
  vars?: Record<string, string>;
}

/**
 * Types the default export of a TypeScript cases file; validation happens when it is loaded.
 * @example
 * export default defineCases([
 *   { id: 'capital', prompt: 'Capital of France? One word.', expect: { equals: 'Paris' } },
 * ]);
 */
export function defineCases<const T extends readonly CaseInput[]>(cases: T): T {
  return cases;
}
