import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import OpenAI from 'openai';
import { pino } from 'pino';
import type { Router, RouterOptions } from '../../src/router.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { REPO_ROOT } from './profile.js';
import type { BenchRequest } from './prompts.js';

export const MODEL = 'gpt-4o-mini';
export const API_KEY = 'sk-bench-0123456789';
export const silentLogger = pino({ level: 'silent' });

/** The official SDK pointed at the simulator; `maxRetries: 0` is the bare baseline, 2 is the SDK's own retries. */
export function sdkClient(baseURL: string, maxRetries: number, timeoutMs = 60_000, onHeaders?: (headers: Headers) => void): OpenAI {
  const observe = onHeaders && (async (url: string | URL | Request, init?: RequestInit) => {
    const res = await fetch(url, init);
    onHeaders(res.headers);
    return res;
  });
  return new OpenAI({ apiKey: API_KEY, baseURL, maxRetries, timeout: timeoutMs, ...(observe ? { fetch: observe } : {}) });
}

/** One chat completion through the SDK, as a user would write it. */
export function sdkCall(client: OpenAI, req: BenchRequest): Promise<OpenAI.ChatCompletion> {
  return client.chat.completions.create({ model: MODEL, messages: req.messages as OpenAI.ChatCompletionMessageParam[], max_completion_tokens: req.maxTokens });
}

/** What a user would retry on by hand: 408, 409, 429, 5xx and connection errors (the SDK's own list). */
export function retryable(err: unknown): boolean {
  if (err instanceof OpenAI.APIConnectionError) return !(err instanceof OpenAI.APIUserAbortError);
  if (err instanceof OpenAI.APIError) {
    const s = err.status ?? 0;
    return s === 408 || s === 409 || s === 429 || s >= 500;
  }
  return false;
}

export interface BackoffPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The textbook loop: capped exponential backoff with full jitter, no header hints, no breaker, no budget. */
export const PLAIN_BACKOFF: BackoffPolicy = Object.freeze({ maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8_000 });

/** One call through the plain backoff loop. */
export async function backoffCall(client: OpenAI, req: BenchRequest, policy: BackoffPolicy, random: () => number): Promise<OpenAI.ChatCompletion> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await sdkCall(client, req);
    } catch (err) {
      if (attempt >= policy.maxAttempts || !retryable(err)) throw err;
      const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      await new Promise((resolve) => setTimeout(resolve, random() * ceiling));
    }
  }
}

/** A short label for a failure of any arm: the router's kind, or the SDK's status / connection error. */
export function failureLabel(err: unknown): string {
  const e = err as { kind?: string; status?: number; name?: string };
  if (typeof e?.kind === 'string') return e.kind;
  if (err instanceof OpenAI.APIError && err.status !== undefined) return String(err.status);
  return e?.name ?? 'error';
}

/**
 * Simulator limits that never bind. Its defaults (30,000 RPM) are below what a tight benchmark loop
 * sends, and a 429 there would send the router's arms into retries and fallbacks mid-measurement.
 */
export const UNLIMITED_SIM = Object.freeze({ rpm: 1_000_000_000, tpm: 1_000_000_000_000 });

/** Budgets on every target, large enough never to bind on the happy path (overhead and memory scenarios). */
export const ROOMY_LIMITS = Object.freeze({ rpm: 10_000_000, tpm: 2_000_000_000, concurrency: 20_000 });

/**
 * The router of the overhead and memory scenarios: a two-target chain (primary, then secondary), a
 * breaker per provider, budgets (RPM, TPM, concurrency) and retries, all at their defaults except
 * what is passed.
 */
export function chainConfig(baseURLs: { primary: string; secondary: string }, extra: { tokenizer?: 'auto' | 'heuristic'; timeoutMs?: number; windowMs?: number; transport?: 'node-http' | 'fetch' } = {}): SwitchyardConfig {
  const limits = { ...ROOMY_LIMITS, ...(extra.tokenizer ? { tokenizer: extra.tokenizer } : {}), ...(extra.windowMs ? { windowMs: extra.windowMs } : {}) };
  const timeoutMs = extra.timeoutMs ?? 60_000;
  return {
    providers: {
      primary: { type: 'openai', apiKey: API_KEY, baseURL: baseURLs.primary, timeoutMs, limits, ...(extra.transport ? { transport: extra.transport } : {}) },
      secondary: { type: 'openai', apiKey: API_KEY, baseURL: baseURLs.secondary, timeoutMs, limits, ...(extra.transport ? { transport: extra.transport } : {}) },
    },
    chains: { default: [`primary:${MODEL}`, `secondary:${MODEL}`] },
    log: { level: 'silent' },
  };
}

/** `createRouter` of one router source (this checkout's, or a git ref materialised by lib/refs.ts). */
export type CreateRouter = (config: SwitchyardConfig, options?: RouterOptions) => Router;

const loaded = new Map<string, Promise<CreateRouter>>();
let current: CreateRouter | undefined;

/**
 * Imports `<root>/src/router.ts` (TypeScript, through the tsx loader every bench process runs under).
 * Loaded on demand rather than by a static import, so that two versions of the router can sit in one
 * process side by side, and so that a working tree that does not load fails the arm, not the harness.
 */
export function loadCreateRouter(root: string = REPO_ROOT): Promise<CreateRouter> {
  let p = loaded.get(root);
  if (!p) {
    p = import(pathToFileURL(join(root, 'src', 'router.ts')).href).then((m: { createRouter?: CreateRouter }) => {
      if (typeof m.createRouter !== 'function') throw new Error(`${root}/src/router.ts exports no createRouter`);
      return m.createRouter;
    });
    loaded.set(root, p);
  }
  return p;
}

/** Sets which router source `benchRouter` builds from (this checkout's by default); call once before any scenario. */
export async function useRouterSource(root: string = REPO_ROOT): Promise<void> {
  current = await loadCreateRouter(root);
}

/** A router with a silent logger (and any other `options`, a seeded `random` say), from `create` or else the source `useRouterSource` chose. */
export function benchRouter(config: SwitchyardConfig, create: CreateRouter | undefined = current, options?: RouterOptions): Router {
  if (!create) throw new Error('benchRouter: no router source loaded (call useRouterSource first)');
  return create(config, Object.assign({ logger: silentLogger }, options));
}

/** One `router.chat` call for a bench request. */
export function routerCall(router: Router, req: BenchRequest, deadlineMs?: number) {
  return router.chat({ messages: req.messages, maxTokens: req.maxTokens, ...(deadlineMs !== undefined ? { timeoutMs: deadlineMs } : {}) });
}

/**
 * One arm of the overhead and memory scenarios, as plain data (it crosses into child processes):
 * the bare SDK, or the scenario's router chain built from the router source at `root`.
 */
export type ArmSpec =
  | { name: string; label: string; kind: 'sdk' }
  | { name: string; label: string; kind: 'router'; root: string; tokenizer?: 'auto' | 'heuristic'; transport?: 'node-http' | 'fetch'; /** A whole-call `timeoutMs` on every call (bench/lab). */ deadlineMs?: number };

export interface Arm {
  spec: ArmSpec;
  call: () => Promise<unknown>;
  close(): Promise<void>;
}

/** Builds an arm against two base URLs (the SDK uses the primary's). */
export async function makeArm(spec: ArmSpec, baseURLs: { primary: string; secondary: string }, req: BenchRequest, extra: { timeoutMs?: number; windowMs?: number } = {}): Promise<Arm> {
  if (spec.kind === 'sdk') {
    const client = sdkClient(baseURLs.primary, 0, extra.timeoutMs);
    return { spec, call: () => sdkCall(client, req), close: async () => {} };
  }
  const router = benchRouter(chainConfig(baseURLs, { ...extra, ...(spec.tokenizer ? { tokenizer: spec.tokenizer } : {}), ...(spec.transport ? { transport: spec.transport } : {}) }), await loadCreateRouter(spec.root));
  const deadlineMs = spec.deadlineMs;
  return { spec, call: () => routerCall(router, req, deadlineMs), close: () => router.close() };
}
