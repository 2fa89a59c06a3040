// The public entry: an explicit list. Test hooks live in `switchyard-llm/testing`.
export { createRouter } from './router.js';
export type { Router, RouterOptions } from './router.js';
export type { InputUsage, StreamEvent, StreamOptions, StreamThinking } from './calls/stream.js';
export { RouterError, isRouterError, ERROR_KINDS } from './errors.js';
export type { ErrorKind, RouterErrorFacts } from './errors.js';
export { fromOpenAI, toOpenAI } from './convert/index.js';
export type { FromOpenAIOptions, ToOpenAIOptions } from './convert/index.js';
export { defineConfig, loadConfig } from './config/index.js';
export type { SwitchyardConfig, ResolvedConfig, FakeStep } from './config/index.js';
export type {
  ChatRequest, ChatResult, Attempt, Message, SystemMessage, UserMessage, AssistantMessage, ToolMessage, ContentPart,
  TextPart, ImagePart, FilePart, CacheBreakpoint, Tool, ToolCall, ToolChoice, ResponseFormat, ReasoningOptions, ProviderParts, JSONSchema,
  SchemaInput, Usage, FinishReason, RateLimitSnapshot, RateLimitWindow, EmbedRequest, EmbedResult,
} from './types.js';
export type { RouterEvents, RouterEventName, Listener, SpendEvent, ShadowEvent } from './observe/events.js';
export type { ShadowGrader } from './runtime/shadow-grader.js';
export { systemClock } from './time/system-clock.js';
export type { Clock, Timer, TimerOptions } from './types.js';
export { memoryStore } from './store/memory-store.js';
export { redisStore } from './store/redis-store.js';
export type { RedisStoreOptions } from './store/redis-store.js';
export type {
  StateStore, StoreLifecycle, ConnectionListener, BlockStore, Block, BudgetStore, BudgetLimits, BudgetRequest, BudgetGrant, BudgetDenial,
  BudgetSettlement, TokenDelta, IdempotencyStore, IdempotencyState, IdempotencyRead, CacheStore, BreakerStateStore, SharedBreakerState,
  SpendStore, SpendReservation, SpendGrant, SpendSettlement, SpendAlert, SpendRow, SpendWindowLimit, ShareStore, ShareSync, ShareView,
} from './store/state-store.js';
export type { Price } from './spend/price-table.js';
export type { BreakerState } from './policy/breaker/circuit-breaker.js';
