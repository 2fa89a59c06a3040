import type { Logger } from 'pino';
import type {
  CacheBreakpoint, Clock, FinishReason, JSONSchema, Message, ProviderParts, RateLimitSnapshot, ReasoningOptions, ToolCall, ToolChoice, Usage,
} from '../src/types.js';
import type { PresetName } from './shared/presets/catalog.js';

// The provider spec: everything an adapter is given and must return. Adapters import this file,
// src/errors.ts, src/types.ts, providers/shared and their own folder, nothing else of src: what
// they read of the config is declared here, and the router's resolved config must fit it (the
// router hands its providers to `createAdapter`, so tsc checks that on every build).

export type { Clock, Logger };

/** A failure the fake provider can be scripted to answer with. */
export type FakeFailureKind =
  | 'rate_limited' | 'quota_exhausted' | 'server' | 'timeout' | 'transport' | 'bad_request' | 'context_length'
  | 'content_filter' | 'auth' | 'not_found';

/**
 * One scripted outcome of the in-process `fake` provider. The config's `fakeStepSchema`
 * (src/config/schema.ts) documents each field; test/architecture/provider-spec.test.ts holds the
 * two types equal.
 */
export type FakeStep =
  | 'ok'
  | 'hang'
  | {
    text?: string;
    finishReason?: FinishReason;
    latencyMs?: number;
    cutAfterChunks?: number;
    toolCalls?: Array<{ name: string; arguments?: Record<string, unknown>; id?: string }>;
    invalidJson?: boolean;
    usage?: { cachedInputTokens?: number; cacheWriteTokens?: number; reasoningTokens?: number };
  }
  | { fail: FakeFailureKind; status?: number; code?: string; retryAfterMs?: number; message?: string; latencyMs?: number; afterChunks?: number };

/** The defaults of the settings adapters read; the config's `DEFAULTS.provider` takes them from here. */
export const PROVIDER_SETTING_DEFAULTS = Object.freeze({
  transport: 'node-http' as 'node-http' | 'fetch',
  azure: false,
});

/** What every adapter reads of its provider's resolved config. */
interface ProviderSettingsBase {
  /** The provider's key under `providers`. */
  name: string;
  baseURL?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** The API key (`apiKey`, or the variable `apiKeyEnv` names); never logged. */
  resolvedApiKey?: string;
  /** `node-http` (Node's http client, the adapter's own keep-alive pool) or the SDK's own `fetch`. @default 'node-http' */
  transport?: 'node-http' | 'fetch';
  /** OpenAI-speaking providers: Azure OpenAI through the SDK's Azure client. @default false */
  azure?: boolean;
}

/** One provider's resolved config as its adapter sees it, by `type`. */
export type ProviderSettings =
  | (ProviderSettingsBase & {
    type: 'openai';
    /** Which OpenAI API the adapter calls: Chat Completions, or the Responses API. @default 'chat' */
    api?: 'chat' | 'responses';
  })
  | (ProviderSettingsBase & { type: 'anthropic' })
  | (ProviderSettingsBase & { type: 'gemini' })
  | (ProviderSettingsBase & {
    type: 'bedrock';
    /** AWS region; unset, the AWS SDK resolves it (AWS_REGION, the profile's). */
    region?: string;
    /** A named profile of the shared AWS config files to take credentials (and region) from. */
    profile?: string;
  })
  | (ProviderSettingsBase & {
    type: 'openai-compatible';
    /** The service whose error dialect and header names the adapter reads (the config filled in the rest). */
    preset?: PresetName;
  })
  | (ProviderSettingsBase & {
    type: 'fake';
    script?: FakeStep[];
    respond?: (request: unknown, n: number) => unknown;
    latencyMs?: number;
  });

/** The provider types an adapter exists for (the config's `providers.*.type`). */
export type ProviderType = ProviderSettings['type'];

/** A tool as adapters see it: the schema already JSON Schema (zod converted once, by the router). */
export interface ProviderTool {
  name: string;
  description?: string;
  parameters: JSONSchema;
  strict?: boolean;
  /** A prompt-cache breakpoint after this tool (`Tool.cache`). */
  cache?: CacheBreakpoint;
}

/** `responseFormat` as adapters see it: JSON Schema, with the name and strictness settled. */
export type ProviderResponseFormat =
  | { type: 'json' }
  | { type: 'json_schema'; name: string; schema: JSONSchema; strict: boolean };

/** One request to one (provider, model): the chain has already picked the target. */
export interface ProviderRequest {
  model: string;
  messages: Message[];
  maxTokens?: number;
  temperature?: number;
  tools?: ProviderTool[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  responseFormat?: ProviderResponseFormat;
  stop?: string[];
  topP?: number;
  seed?: number;
  user?: string;
  reasoning?: ReasoningOptions;
  /**
   * The router's thinking decision for this target (src/decide/thinking-budget.ts), when `maxTokens`
   * is set and the model thinks: `maxTokens` stays the visible answer's budget, and the adapter sends
   * `maxTokens + addTokens` as the provider's output limit whenever thinking is on.
   */
  thinking?: ThinkingPlan;
  /** Merged verbatim into this provider's request body (the call's `providerOptions` for its type, then its name). */
  extraBody?: Record<string, unknown>;
  /**
   * Pass-through: the client's body, `model` already the target's, to send as it is instead of a
   * body built from the fields above (which still hold what the router decides by). Set by the
   * router only when the target's `rawTarget` takes it and nothing needs mapping
   * (src/decide/pass-through.ts), so it is written for the API that `rawTarget` named. A streamed
   * body (`"stream": true`) is sent to the stream endpoint, a plain one to chat.
   */
  raw?: string;
  /**
   * Pass-through streams: the router added `stream_options.include_usage` to `raw` (the client did
   * not ask for usage, the router needs it for spend), so the `choices: []` usage chunk is read but
   * not passed on in `raw` stream events.
   */
  rawAddsUsage?: boolean;
  /**
   * The gateway client's `anthropic-beta` header (a comma list), for Anthropic targets only: the
   * `anthropic` adapter sends it as that header on both paths, Bedrock's as the Claude body's
   * `anthropic_beta`. Set by the router for those provider types alone, never logged.
   */
  anthropicBeta?: string;
  /** Responses API targets only: the client's Responses-only fields (gateway `/v1/responses`), carried in the translated body. */
  responsesFields?: ResponsesFields;
}

/**
 * The fields of a gateway client's Responses body with no meaning outside the Responses API, as the
 * client sent them: the `reasoning` keys besides `effort` (`summary`), the `text` keys besides
 * `format` (`verbosity`), `client_metadata`, and its tools that are no function tools (`custom`
 * freeform tools, `local_shell`), which the client runs itself. A Responses target's translated
 * body merges them in (providers/openai/responses/body.ts); every other target goes without.
 */
export interface ResponsesFields {
  reasoning?: Readonly<Record<string, unknown>>;
  text?: Readonly<Record<string, unknown>>;
  client_metadata?: Readonly<Record<string, unknown>>;
  tools?: readonly unknown[];
}

/**
 * How one model thinks, as its adapter reads it from the name (providers/<type>/model-traits.ts):
 * what src/decide/thinking-budget.ts sizes the thinking budget from.
 * - `gemini-budget`: Gemini 2.5 `thinkingBudget` (tokens); `gemini-level`: Gemini 3 `thinkingLevel`;
 * - `claude-budget`: Claude 3.7 to 4.5 `budget_tokens`; `claude-adaptive`: Claude 4.6+ adaptive thinking with an effort;
 * - `openai-effort`: OpenAI reasoning models (`reasoning_effort`; `max_completion_tokens` covers reasoning).
 */
export interface ThinkingTraits {
  style: 'gemini-budget' | 'gemini-level' | 'claude-budget' | 'claude-adaptive' | 'openai-effort';
  /** Thinks when the request asks nothing (Gemini 2.5 Pro and Flash, Gemini 3, OpenAI reasoning models). */
  byDefault: boolean;
  /** The smallest thinking budget the API takes when thinking is on (Gemini 2.5 Pro 128, Flash-Lite 512, Claude 1024). */
  minBudget: number;
  /** The largest (Gemini 2.5 Pro 32768, Flash 24576); undefined when the API names none but the model's output limit. */
  maxBudget?: number;
  /** A budget of 0 turns thinking off (Gemini 2.5 Flash and Flash-Lite; not 2.5 Pro). */
  canDisable: boolean;
}

/** What the router decided for a thinking model: the tokens added to `maxTokens`, and the budget or effort to send. */
export interface ThinkingPlan {
  /** Added to `maxTokens` in the provider's output limit while thinking is on (0 when thinking is off). */
  addTokens: number;
  /** The thinking budget to send, for budget-style models (`thinkingBudget`, `budget_tokens`); 0 turns Gemini's off. */
  budgetTokens?: number;
  /** The effort to send when the request gave only `budgetTokens` to an effort-style model: the least effort whose allowance covers it. */
  effort?: NonNullable<ReasoningOptions['effort']>;
}

/** Which API a pass-through body is written for: OpenAI's Chat Completions, Responses API or embeddings, or Anthropic's Messages. */
export type PassThroughApi = 'chat' | 'responses' | 'embeddings' | 'messages';

/** What an adapter says of a target that takes OpenAI Chat Completions bodies as they are. */
export interface RawChatTarget {
  /** `openai` (max_completion_tokens) or an `openai-compatible` server (max_tokens). */
  dialect: 'openai' | 'openai-compatible';
  /** A reasoning model, which refuses temperature, top_p and stop. */
  reasoning: boolean;
}

/** What an adapter says of a target that takes OpenAI Responses API bodies as they are. */
export interface RawResponsesTarget {
  /** A reasoning model: `reasoning` goes, `temperature` and `top_p` do not. */
  reasoning: boolean;
  /** The schema the adapter sends for this one (strict mode closes it, `$schema` is dropped); undefined when strict mode cannot take it. */
  sentSchema(schema: JSONSchema, strict: boolean): JSONSchema | undefined;
}

/** What an adapter says of a target that takes Anthropic Messages bodies as they are (its model's traits). */
export interface RawMessagesTarget {
  /** How the model thinks: `adaptive` (4.6 and newer), `budget` (`budget_tokens`, 3.7 to 4.5) or `none`. */
  thinking: 'adaptive' | 'budget' | 'none';
  /** Native structured output (`output_config.format`); without it the router sends a forced tool. */
  structuredOutput: boolean;
  /** The `input_schema` the adapter sends for a tool's (strict mode closes it, `$schema` is dropped). */
  sentSchema(schema: JSONSchema, strict: boolean): JSONSchema;
}

/** A target that takes one API's bodies as they are (see `ProviderAdapter.rawTarget`): which API, and what the decision reads of it. */
export type RawTarget = (RawChatTarget & { api: 'chat' }) | (RawResponsesTarget & { api: 'responses' }) | (RawMessagesTarget & { api: 'messages' });

/** What an adapter returns on success: the normalised answer plus the facts the policies read. */
export interface ProviderResponse {
  text: string;
  /** Tool calls with their arguments parsed; [] when none. */
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  /** Absent when the provider reported no usage: unknown, never 0. */
  usage?: Usage;
  /** The model the provider says answered (may be a dated snapshot of the one asked for). */
  model: string;
  requestId?: string;
  rateLimit?: RateLimitSnapshot;
  /** Content only this provider's API understands (thinking blocks), to round-trip on the next turn. */
  providerParts?: ProviderParts;
  /** Pass-through: the response body exactly as the provider sent it (for a request sent `raw`). */
  raw?: string;
  /** With `raw`: the API whose answer it is (the one the request's bytes were written for), so a relay never sends one endpoint another's body. */
  rawApi?: PassThroughApi;
  /** With `raw`, when the adapter parsed it: the body as parsed (a Responses answer's Response object), so nothing parses it again. */
  rawParsed?: Readonly<Record<string, unknown>>;
}

/**
 * What the router and its own transport read of an abort signal: an `AbortSignal` is one, and so is
 * the router's `AbortLink` (src/policy/abort/abort-link.ts), which makes no `AbortSignal` unless asked.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * Per-request options: `signal` aborts the request at once; `timeoutMs`, when given, bounds it the
 * SDK's way (connect and headers). The router decides which to pass; an adapter forwards both.
 */
export interface ProviderCallOptions {
  signal?: AbortSignal;
  /**
   * The same abort as `signal`, for an adapter that only listens to it (the `node:http` transport's
   * `post` does): reading it makes no `AbortSignal`, which on Node 20 costs a hidden class of its own.
   */
  readonly abort?: AbortSignalLike;
  timeoutMs?: number;
  /**
   * Called by the adapter once per request, right before its bytes go to the network: after the
   * request is mapped and its body serialised. Whatever fails before it sent nothing, so the router
   * takes it for the caller's (or its own) fault, never the provider's: no breaker or cooling hears
   * of it. Every adapter calls it on chat, stream and embed (the contract suite checks), and calls it
   * on these options, `options.onSend()`, never detached: the router's is a method of its per-attempt
   * handle (no closure per request), and a detached call throws a TypeError saying so.
   */
  onSend?: () => void;
}

/**
 * What an adapter's stream yields: `open` once the response headers arrive; `delta` for every
 * non-empty piece of text; `thinking` for reasoning (its text, signature or redacted data, which the
 * router shows only to a request with `streamThinking`; otherwise liveness only); `usage` at most
 * once, before any content, when the provider reports the prompt's tokens up front; tool
 * calls as `tool_call_start` (index = the call's ordinal in this answer, from 0, never a content-block
 * index), `tool_call_delta` fragments of its JSON arguments and `tool_call_end` once its arguments are
 * complete; and `finish` exactly once, last, when and only when the provider's terminal event
 * arrived, with the usage the stream reported (none when it sent no usage: unknown, never 0). Pings, role-only and empty deltas are not yielded. A stream cut before `finish`, or an
 * error frame, is thrown as a `RouterError`. A request sent `raw` (pass-through) also yields `raw`
 * events: the upstream's bytes, whole SSE events as they came, each before the events read from it.
 */
export type ProviderStreamEvent =
  | { type: 'open'; requestId?: string; rateLimit?: RateLimitSnapshot }
  | { type: 'raw'; bytes: string }
  | { type: 'delta'; text: string }
  | {
    type: 'thinking';
    /** The thinking block of this answer it belongs to (0, 1, ...: its ordinal, never a content-block index); set whenever a field below is. */
    index?: number;
    /** A piece of the block's text (Anthropic thinking_delta, Bedrock reasoningText.text, a Gemini thought part). */
    delta?: string;
    /** The block's signature, once known (Anthropic signature_delta, Bedrock reasoningText.signature, Gemini thoughtSignature). */
    signature?: string;
    /** A redacted block's opaque data, whole (Anthropic redacted_thinking.data; Bedrock redactedContent as base64). */
    redacted?: string;
  }
  | {
    type: 'usage';
    /** The prompt's tokens as the provider reported them before the answer (Anthropic's message_start): what a relay can show at the start. */
    inputTokens: number;
    cachedInputTokens?: number;
    cacheWriteTokens?: number;
  }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_delta'; index: number; argumentsDelta: string }
  | { type: 'tool_call_end'; index: number }
  | { type: 'finish'; finishReason: FinishReason; usage?: Usage; model?: string; providerParts?: ProviderParts };

/** One embeddings request to one (provider, model), within the provider's `maxEmbeddingInputs` and `maxEmbeddingTokens`. */
export interface ProviderEmbedRequest {
  model: string;
  input: string[];
  dimensions?: number;
  /**
   * Pass-through: the client's OpenAI embeddings body, `model` already the target's, to send as it is
   * (the fields above still hold what the router decides by). Set only for an adapter with `rawEmbeddings`.
   */
  raw?: string;
  /** With `raw`: the encoding the client asked for (its `encoding_format`), which the answer must be in to be relayed as it came. */
  rawEncoding?: 'float' | 'base64';
}

/** Vectors in input order. */
export interface ProviderEmbedResponse {
  embeddings: number[][];
  usage: { inputTokens: number };
  model: string;
  requestId?: string;
  rateLimit?: RateLimitSnapshot;
  /** Pass-through: the response body exactly as the provider sent it, when its vectors are in the `rawEncoding` asked. */
  raw?: string;
}

/**
 * What the policies need to know about a provider, answered by its adapter so that nothing under
 * `src/policy` knows a provider's constants.
 */
export interface ProviderTraits {
  /**
   * How the provider's rate limiter counts a prompt: `characters` (OpenAI's limiter charges about 4
   * characters a token, whatever the tokenizer says) or `heuristic` (no public rule: estimate high).
   */
  tokenCounting: 'characters' | 'heuristic';
  /**
   * Output tokens a request without `maxTokens` reserves against the provider's TPM (Anthropic's
   * adapter must send a `max_tokens`, so the provider reserves exactly that). Undefined: the
   * provider's own reservation is unknown, and the config's `reserveOutputTokens` stands in.
   */
  defaultMaxTokens?: number;
  /** Most inputs one embeddings request may carry; undefined when the provider has no embeddings API. */
  maxEmbeddingInputs?: number;
  /**
   * Most inputs one embeddings request to this model may carry, where the provider's models differ
   * (Bedrock: Titan takes 1, Cohere 96); `maxEmbeddingInputs` (the largest of them) otherwise.
   */
  maxEmbeddingInputsFor?(model: string): number;
  /** Most tokens one embeddings request may carry, summed over its inputs; undefined when unbounded. */
  maxEmbeddingTokens?: number;
  /**
   * The adapter's own request timeout covers the whole answer, body included, and ends the request
   * when it fires (the `node:http` transport reads a plain answer whole before it resolves). Only
   * then may a plain call hand its timeout to the SDK; otherwise (undici's `fetch`, whose timeout
   * covers connect and headers only) every attempt runs under the router's own timer and abort.
   */
  timeoutCoversBody?: boolean;
}

/**
 * The provider contract. An adapter sends one request through its SDK (retries off) and either
 * returns a `ProviderResponse` or throws a `RouterError` carrying facts: kind, status, code,
 * retryAfterMs, requestId. It never retries and never decides what happens next.
 */
export interface ProviderAdapter {
  readonly name: string;
  readonly type: ProviderType;
  readonly traits: ProviderTraits;
  chat(request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse>;
  stream(request: ProviderRequest, options: ProviderCallOptions): AsyncIterable<ProviderStreamEvent>;
  /**
   * Present when the adapter sends one OpenAI API's bodies as they are to `model` (pass-through):
   * which API (`raw` is then a body of it) and what the decision reads of the model; undefined for
   * one it must map.
   */
  rawTarget?(model: string): RawTarget | undefined;
  /** How `model` thinks (read once per target); undefined for a model that does not, or whose thinking the adapter does not size. */
  thinkingTraits?(model: string): ThinkingTraits | undefined;
  /** True when `embed` sends OpenAI embeddings bodies as they are (`ProviderEmbedRequest.raw`, pass-through). */
  readonly rawEmbeddings?: boolean;
  /** Present when the provider has an embeddings API. */
  embed?(request: ProviderEmbedRequest, options: ProviderCallOptions): Promise<ProviderEmbedResponse>;
  close(): Promise<void>;
}

/** What every adapter factory receives. */
export interface AdapterContext {
  provider: ProviderSettings;
  clock: Clock;
  logger: Logger;
  /**
   * Hides this provider's secrets (its API key, the values of its `headers` and `query`) in a
   * text: providers echo keys back in error messages, so every message that leaves the adapter
   * passes through it. The router builds it from the config; adapters never read the secrets' rules.
   */
  redact: (text: string) => string;
}
