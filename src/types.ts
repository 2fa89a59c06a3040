import type { ZodType } from 'zod';

// The lowest floor: the words every layer shares (src/errors.ts, the policies, the providers'
// spec and adapters). It imports nothing of ours, so nothing can import it in a circle.

/** Every way a call can fail, in one list; the decision table in src/decide/ is keyed on it. */
export const ERROR_KINDS = Object.freeze([
  'rate_limited', 'quota_exhausted', 'server', 'timeout', 'transport', 'circuit_open', 'local_limit',
  'bad_request', 'context_length', 'content_filter', 'auth', 'not_found', 'aborted', 'invalid_request',
  'config', 'exhausted', 'invalid_output', 'unsupported', 'budget_exceeded',
] as const);

/** One of `ERROR_KINDS`. */
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** A JSON Schema object (draft 2020-12 as the providers take it), passed through as written. */
export type JSONSchema = Record<string, unknown>;

/** A schema given either as JSON Schema or as a zod schema (converted to JSON Schema once, validated with zod). */
export type SchemaInput = JSONSchema | ZodType;

/**
 * A prompt-cache breakpoint: the provider may cache the prompt up to and including what carries it
 * (a content part, a message, a tool). Anthropic targets send it as `cache_control: {type:
 * 'ephemeral', ttl}` on that block (on a message, on its last block); Bedrock targets as a
 * `cachePoint` block after it, on models with prompt caching. OpenAI caches on its own: the prefix
 * up to the first breakpoint outside the last message becomes its `prompt_cache_key`. Gemini caches
 * implicitly and ignores it (docs/prompt-caching.md).
 */
export interface CacheBreakpoint {
  /** The cache lifetime (Anthropic `ttl`, Bedrock `cachePoint.ttl`). @default '5m' */
  ttl?: '5m' | '1h';
  /**
   * Anthropic's `cache_control` object exactly as a client wrote it (the gateway's /v1/messages
   * keeps it: `scope`, keys Anthropic adds later): Anthropic targets are sent it as it is, instead
   * of one built from `ttl`; other providers read `ttl` alone.
   */
  cacheControl?: Readonly<Record<string, unknown>>;
}

/** Text in a user message. */
export interface TextPart {
  type: 'text';
  text: string;
  cache?: CacheBreakpoint;
}

/** An image in a user message: an `https:` URL or a `data:image/...;base64,` URL. */
export interface ImagePart {
  type: 'image';
  url: string;
  /** OpenAI's resolution hint; dropped for providers without one. */
  detail?: 'auto' | 'low' | 'high';
  cache?: CacheBreakpoint;
}

/** A file in a user message, inline as base64 (PDFs: `application/pdf`). */
export interface FilePart {
  type: 'file';
  /** The file's bytes, base64 (no `data:` prefix). */
  data: string;
  mediaType: string;
  filename?: string;
  cache?: CacheBreakpoint;
}

/** One part of a user message's content. */
export type ContentPart = TextPart | ImagePart | FilePart;

/** A tool call the model asked for, with its arguments parsed from JSON. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** A tool the model may call. `parameters` is JSON Schema or a zod object schema. */
export interface Tool {
  name: string;
  description?: string;
  parameters: SchemaInput;
  /** Ask the provider to hold the arguments to the schema exactly (OpenAI and Anthropic `strict`). */
  strict?: boolean;
  /** A prompt-cache breakpoint after this tool's definition (tools come first in the prompt). */
  cache?: CacheBreakpoint;
}

/** Which tool the model must use: `auto` (its choice), `none`, `required` (some tool), or one by name. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** What an answer must be: any JSON object, or JSON matching a schema (parsed into `result.object`). */
export type ResponseFormat =
  | { type: 'json' }
  | { type: 'json_schema'; schema: SchemaInput; name?: string; strict?: boolean };

/**
 * Parts of an assistant turn only the API that produced them understands (Anthropic thinking blocks,
 * which must come back unmodified and in order in a tool loop; OpenAI Responses reasoning items with
 * their encrypted content; Gemini parts with their thought signatures). Replayed verbatim to a
 * provider of that API, translated between Anthropic and Bedrock Claude (one model), dropped for any
 * other (src/decide/reasoning-replay.ts).
 */
export type ProviderParts =
  | {
    /** The API that produced them. */
    api: 'anthropic' | 'bedrock';
    /** The turn's content blocks exactly as received, thinking (Bedrock: reasoning) blocks included. */
    blocks: unknown[];
  }
  | {
    api: 'openai-responses';
    /** The turn's output items exactly as received (`reasoning` with `encrypted_content`, `message`, `function_call`). */
    items: unknown[];
  }
  | {
    api: 'gemini';
    /** The turn's parts exactly as received, thought signatures included. */
    blocks: unknown[];
  };

/** An assistant turn; `result.message` is one, ready to append to the history. */
export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  toolCalls?: ToolCall[];
  providerParts?: ProviderParts;
  /** A prompt-cache breakpoint after this turn (ignored when `providerParts` are replayed: they keep their own). */
  cache?: CacheBreakpoint;
}

/** A tool's result, answering the tool call with `toolCallId`. */
export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  content: string;
  /** The tool failed; `content` says how (Anthropic `is_error`). */
  isError?: boolean;
  /** A prompt-cache breakpoint after this result. */
  cache?: CacheBreakpoint;
}

/** A system (or OpenAI `developer`) instruction. */
export interface SystemMessage {
  role: 'system' | 'developer';
  content: string;
  /** A prompt-cache breakpoint after this instruction (Anthropic: its own `system` text block). */
  cache?: CacheBreakpoint;
}

/** A user turn: text, or text with images and files. */
export interface UserMessage {
  role: 'user';
  content: string | ContentPart[];
  /** A prompt-cache breakpoint after this turn (on its last part). */
  cache?: CacheBreakpoint;
}

/** A chat message in the one shape every provider accepts. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** Why the model stopped, normalised across providers. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

/** Token usage as the provider reported it; `inputTokens` counts cached prompt tokens too, on every provider. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens read from the provider's prompt cache (part of `inputTokens`). */
  cachedInputTokens?: number;
  /** Prompt tokens written to the provider's prompt cache (part of `inputTokens`). */
  cacheWriteTokens?: number;
  /** Of `cacheWriteTokens`, written with a 5-minute lifetime, where the provider reports the split (Anthropic, Bedrock). */
  cacheWrite5mTokens?: number;
  /** Of `cacheWriteTokens`, written with a 1-hour lifetime, where the provider reports the split (Anthropic, Bedrock). */
  cacheWrite1hTokens?: number;
  /** Output tokens spent on reasoning or thinking (part of `outputTokens`). */
  reasoningTokens?: number;
}

/** One target tried (a request sent) or skipped (no request sent), in call order. */
export interface Attempt {
  provider: string;
  model: string;
  ok: boolean;
  kind?: ErrorKind;
  status?: number;
  /** True when no request was sent: open circuit, cooling, parked, local limit, unsupported. */
  skipped?: boolean;
  /**
   * Skips only, when the router knows why: for `local_limit` the budget that was full (`rpm`, `tpm`,
   * `itpm`, `otpm`, `concurrency`, `provider`) or `too_large` (the request can never fit it); for a
   * cooling or parked target what put it there (the provider's code).
   */
  code?: string;
  /** How long the router waited before this attempt (a retry's delay, time queued for budget). */
  waitedMs?: number;
  latencyMs: number;
  requestId?: string;
  /** True on the attempts of a hedge: the chain's next step, tried while the first had not answered. */
  hedge?: true;
}

/**
 * Reasoning for thinking models (OpenAI `reasoning_effort`, Anthropic thinking, Gemini thinking): an
 * effort, a thinking budget in tokens, or both (at least one). `maxTokens` stays the visible answer's
 * budget: the router adds the thinking budget on top (docs/providers.md, "maxTokens and thinking").
 */
export interface ReasoningOptions {
  effort?: 'minimal' | 'low' | 'medium' | 'high';
  /** The thinking budget, in tokens (Anthropic `budget_tokens`, Gemini `thinkingBudget`), clamped to the model's range. */
  budgetTokens?: number;
}

/** What `router.chat` and `router.stream` accept. */
export interface ChatRequest {
  /** @default 'default' */
  chain?: string;
  messages: Message[];
  maxTokens?: number;
  temperature?: number;
  tools?: Tool[];
  /** @default 'auto' when tools are given */
  toolChoice?: ToolChoice;
  /** Whether the model may ask for several tool calls in one turn. @default the provider's (true) */
  parallelToolCalls?: boolean;
  responseFormat?: ResponseFormat;
  stop?: string | string[];
  topP?: number;
  seed?: number;
  /** An opaque end-user id (OpenAI `user`, Anthropic `metadata.user_id`). */
  user?: string;
  reasoning?: ReasoningOptions;
  /** Merged verbatim into the request body of a provider, keyed by provider type or provider name. */
  providerOptions?: Record<string, Record<string, unknown>>;
  tenant?: string;
  idempotencyKey?: string;
  /** Cancels waits and the in-flight request at once. */
  signal?: AbortSignal;
  /** Overall deadline for the whole call, waits included. */
  timeoutMs?: number;
  /** Streams only: abandon a target that shows nothing within this (overrides the provider's). */
  firstTokenTimeoutMs?: number;
  /**
   * Streams only: emit `thinking` events (the model's reasoning text, signatures, redacted data). A
   * forwarded thinking delta is visible output and commits the stream. @default false: thinking
   * stays uncommitted (liveness only), as the commit point says.
   */
  streamThinking?: boolean;
  /** `false` bypasses the response cache for this call. @default true when `cache` is configured */
  cache?: boolean;
}

/** The normalised answer, the same shape from every provider. `T` is the type of `object`. */
export interface ChatResult<T = unknown> {
  /** The answer's text; '' when the answer is only tool calls. */
  text: string;
  /** Tool calls the model asked for; [] when none (`finishReason` is then not `tool_calls`). */
  toolCalls: ToolCall[];
  /** With `responseFormat`: the answer parsed (and validated against the schema). */
  object?: T;
  /** The assistant turn, to append to the history as it is; it replays on any provider. */
  message: AssistantMessage;
  provider: string;
  model: string;
  /** The model the provider says answered, when it named one (a dated snapshot of `model`, say). */
  responseModel?: string;
  finishReason: FinishReason;
  /**
   * Tokens the provider billed; absent when it reported none (an OpenAI-compatible server that
   * ignores `stream_options.include_usage`, a stream cut before its usage chunk): unknown, never an
   * invented 0. Budgets then keep the whole reservation the call made.
   */
  usage?: Usage;
  /** USD this call's answered attempts cost at their targets' prices (docs/spend.md); absent when none was priced. */
  costUsd?: number;
  attempts: Attempt[];
  latencyMs: number;
  requestId?: string;
  /** Streams only: from the call's start to the first visible event (waits and fall-throughs included). */
  timeToFirstTokenMs?: number;
  /** True when this result was not fetched for this call but shared or replayed under its idempotencyKey. */
  replayed?: boolean;
  /** True when this result came from the response cache: nothing was sent. */
  cached?: boolean;
  /**
   * True when a hedge was sent (the chain's `hedge`): the chain's next step was tried while the first
   * had not answered. The attempt that answered says which won (`hedge: true` on the hedge's attempts).
   */
  hedged?: boolean;
}

/** A rate-limit window read from a response's headers. */
export interface RateLimitWindow {
  limit?: number;
  remaining?: number;
  /** Milliseconds until the window is fully replenished, relative to when the headers were read. */
  resetMs?: number;
}

/** Headroom a provider reported on one response, so it can be charted before it hits zero. */
export interface RateLimitSnapshot {
  requests?: RateLimitWindow;
  tokens?: RateLimitWindow;
  inputTokens?: RateLimitWindow;
  outputTokens?: RateLimitWindow;
}

/** What `router.embed` accepts. */
export interface EmbedRequest {
  /** @default 'embeddings' */
  chain?: string;
  input: string | string[];
  /** Vector length, for models that can shorten theirs (`text-embedding-3-*`). */
  dimensions?: number;
  tenant?: string;
  signal?: AbortSignal;
  /** Overall deadline for the whole call, every batch and wait included. */
  timeoutMs?: number;
}

/** Vectors for every input, in input order, all from one model. */
export interface EmbedResult {
  embeddings: number[][];
  provider: string;
  model: string;
  usage: { inputTokens: number };
  /** USD the call's batches cost at their targets' prices; absent when none was priced. */
  costUsd?: number;
  attempts: Attempt[];
  latencyMs: number;
}

/** The text a message carries (text parts joined; images and files are not text), for estimates and displays. */
export function messageText(message: Message): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (content === null) return '';
  let text = '';
  for (const part of content) if (part.type === 'text') text += part.text;
  return text;
}

/** A timer set on a `Clock`; clearing it twice, or after it fired, does nothing. */
export interface Timer {
  clear(): void;
}

/** Options of `Clock.setTimer`. */
export interface TimerOptions {
  /** The timer alone does not keep the process alive (housekeeping: breaker windows, stall sweeps). @default false */
  unref?: boolean;
}

/**
 * Time as the router sees it: every layer that reads the time or waits takes it from here, so a
 * test can inject a clock it moves by hand and every timer follows.
 */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Calls `fn` once, `ms` from now, unless cleared first. */
  setTimer(ms: number, fn: () => void, options?: TimerOptions): Timer;
  /**
   * True when this clock is the process's own time, the time the SDKs' own request timeouts run on:
   * only then may the router hand an attempt's timeout to the SDK instead of timing it itself.
   */
  readonly isWallClock?: boolean;
}
