import type { FaultKind } from './options.js';

/** Counters of one simulated provider. */
export interface ProviderStats {
  type: 'openai' | 'anthropic' | 'gemini' | 'bedrock';
  /** Requests received (every one, whatever its outcome). */
  requests: number;
  /** Requests whose response has not finished yet (hangs included). */
  inFlight: number;
  /** Of `requests`, how many asked for a stream. */
  streams: number;
  /** Responses by HTTP status (`"200"`, `"429"`, ...). Resets and hangs have none. */
  byStatus: Record<string, number>;
  /** Faults applied, by kind. */
  byFault: Partial<Record<FaultKind, number>>;
  /** 429s from the rate limiters, chat's and embeddings' (forced `rate_limit` faults are in `byFault`). */
  rateLimited: number;
  /** Requests refused with overloaded because `capacity` answers were already being served. */
  overCapacity: number;
  /** Tokens of the chat answers sent (prompt and completion, as reported in `usage`). */
  tokens: { input: number; output: number };
  /** Of `requests`, those to `/embeddings`, and the input tokens of the ones answered. */
  embeddings: { requests: number; tokens: number };
}

/** Everything the simulator counted since it started. */
export interface SimulatorStats {
  startedAtMs: number;
  uptimeMs: number;
  requests: number;
  inFlight: number;
  connections: { open: number; total: number };
  providers: Record<string, ProviderStats>;
}

/** Live counters; `snapshot()` copies them so a caller can keep one without it changing underneath. */
export class StatsBook {
  readonly providers: Record<string, ProviderStats> = {};
  connectionsOpen = 0;
  connectionsTotal = 0;

  constructor(readonly startedAtMs: number, private readonly now: () => number) {}

  add(name: string, type: ProviderStats['type']): ProviderStats {
    return (this.providers[name] = {
      type, requests: 0, inFlight: 0, streams: 0, byStatus: {}, byFault: {}, rateLimited: 0, overCapacity: 0, tokens: { input: 0, output: 0 }, embeddings: { requests: 0, tokens: 0 },
    });
  }

  snapshot(): SimulatorStats {
    const providers: Record<string, ProviderStats> = {};
    let requests = 0;
    let inFlight = 0;
    for (const [name, p] of Object.entries(this.providers)) {
      providers[name] = { ...p, byStatus: { ...p.byStatus }, byFault: { ...p.byFault }, tokens: { ...p.tokens }, embeddings: { ...p.embeddings } };
      requests += p.requests;
      inFlight += p.inFlight;
    }
    return {
      startedAtMs: this.startedAtMs,
      uptimeMs: this.now() - this.startedAtMs,
      requests,
      inFlight,
      connections: { open: this.connectionsOpen, total: this.connectionsTotal },
      providers,
    };
  }
}

/** Adds one to a counter in a record. */
export function bump<K extends string>(record: Partial<Record<K, number>>, key: K): void {
  record[key] = (record[key] ?? 0) + 1;
}
