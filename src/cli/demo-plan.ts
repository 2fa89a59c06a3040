import type { SwitchyardConfig } from '../config/index.js';
import type { Scenario, Simulator } from '../sim/index.js';

/** What `switchyard demo` can be asked for; all optional. */
export interface DemoOptions {
  /** Calls in the whole run. @default 300 */
  calls?: number;
  /** Length of the run (the phases scale with it). @default 12 */
  seconds?: number;
  /** Calls in flight at once, at most. @default 16 */
  concurrency?: number;
  /** Seeds the simulator. @default 42 */
  seed?: number;
  /** Which API the rate-limited, then failing, primary speaks: OpenAI's or Gemini's. @default 'openai' */
  primary?: 'openai' | 'gemini';
  /** Which API the healthy second target speaks: Anthropic Messages, or Amazon Bedrock Converse. @default 'anthropic' */
  secondary?: SecondaryKind;
}

/** The defaults of `DemoOptions`. */
export const DEMO_DEFAULTS = Object.freeze({ calls: 300, seconds: 12, concurrency: 16, seed: 42 });

/** One phase of the run: what happens to the primary, and how many calls arrive meanwhile. */
export interface Phase {
  name: string;
  caption: string;
  startMs: number;
  endMs: number;
  calls: number;
}

/** Everything a run needs, derived from the options. */
export interface DemoPlan {
  calls: number;
  concurrency: number;
  durationMs: number;
  phases: Phase[];
  scenario: Scenario;
  /** The chain's two targets: the primary (rate-limited, then down) and the secondary (healthy throughout). */
  primary: { provider: string; model: string };
  secondary: { provider: string; model: string };
  /** The primary's enforced limit, for the captions. */
  primaryRpm: number;
  primaryBurst: number;
  config(sim: Simulator): SwitchyardConfig;
}

/** The chain's first target (rate-limited, then down) and its second (healthy throughout). */
export const PRIMARY = { provider: 'openai', model: 'gpt-4o-mini' } as const;
export const SECONDARY = { provider: 'anthropic', model: 'claude-haiku-4-5' } as const;
/** The primary with `primary: 'gemini'`: the Gemini API's 429s (RetryInfo) and 503s instead of OpenAI's. */
export const GEMINI_PRIMARY = { provider: 'gemini', model: 'gemini-2.5-flash' } as const;
/** The second targets the demo can put behind the primary. */
export const SECONDARIES = Object.freeze({
  anthropic: SECONDARY,
  // A cross-region inference profile id, as Claude is usually called on Bedrock.
  bedrock: { provider: 'bedrock', model: 'us.anthropic.claude-haiku-4-5-20251001-v1:0' },
} as const);
/** One of `SECONDARIES`. */
export type SecondaryKind = keyof typeof SECONDARIES;

function secondaryProvider(kind: SecondaryKind, sim: Simulator): SwitchyardConfig['providers'][string] {
  const { provider } = SECONDARIES[kind];
  // Bedrock signs with the AWS default credential chain: no key here (runDemo puts fake ones in the environment).
  if (kind === 'bedrock') return { type: 'bedrock', region: 'us-east-1', baseURL: sim.baseURL(provider), timeoutMs: 5_000 };
  return { type: 'anthropic', apiKey: 'sk-ant-demo-not-a-real-key', baseURL: sim.baseURL(provider), timeoutMs: 5_000 };
}

// Shares of the run's time and of its calls: a burst while rate-limited, an outage, a gentle recovery.
const TIME = [0.35, 0.35, 0.3];
const CALLS = [0.55, 0.3, 0.15];

/**
 * The demo as data: three phases on the primary (rate-limited, down, recovered), the simulator
 * scenario that stages them, and the router config pointing both providers at the simulator.
 * The primary's limit is 80% of the average call rate, so the first phase offers about twice what it
 * admits and the last phase stays under it.
 */
export function demoPlan(options: DemoOptions = {}): DemoPlan {
  const calls = options.calls ?? DEMO_DEFAULTS.calls;
  const durationMs = (options.seconds ?? DEMO_DEFAULTS.seconds) * 1000;
  const bounds = [0, TIME[0]!, TIME[0]! + TIME[1]!, 1].map((share) => Math.round(share * durationMs));
  const perPhase = CALLS.map((share) => Math.round(share * calls));
  perPhase[2] = calls - perPhase[0]! - perPhase[1]!;
  const primaryRps = Math.max(1, (0.8 * calls) / (durationMs / 1000));
  const primaryRpm = Math.round(primaryRps * 60);
  const primaryBurst = Math.max(1, Math.round(primaryRps));
  const gemini = options.primary === 'gemini';
  const primary = gemini ? GEMINI_PRIMARY : PRIMARY;
  const kind = options.secondary ?? 'anthropic';
  const secondary = SECONDARIES[kind];
  const names = ['rate limit', 'outage', 'recovery'];
  const captions = [
    `${primary.provider} admits ${primaryRpm} RPM, at most ${primaryBurst} in any second; calls arrive about twice as fast`,
    `${primary.provider} answers every request with 503`,
    `${primary.provider} is healthy again: its breaker lets one probe through, then closes`,
  ];
  const phases = names.map((name, i) => ({ name, caption: captions[i]!, startMs: bounds[i]!, endMs: bounds[i + 1]!, calls: perPhase[i]! }));
  const scenario: Scenario = {
    description: 'switchyard demo: the primary is rate-limited, then down, then back',
    seed: options.seed ?? DEMO_DEFAULTS.seed,
    providers: {
      [primary.provider]: {
        type: gemini ? 'gemini' : 'openai',
        limits: { rpm: primaryRpm, quantumMs: 1000 },
        latency: { baseMs: 40, perTokenMs: 1, jitterMs: 20 },
        faults: [{ fault: 'unavailable', fromMs: bounds[1], untilMs: bounds[2] }],
      },
      [secondary.provider]: { type: kind, latency: { baseMs: 60, perTokenMs: 1, jitterMs: 30 } },
    },
  };
  const outageMs = bounds[2]! - bounds[1]!;
  return {
    calls, concurrency: options.concurrency ?? DEMO_DEFAULTS.concurrency, durationMs, phases, scenario, primaryRpm, primaryBurst,
    primary, secondary,
    config: (sim) => ({
      providers: {
        [primary.provider]: gemini
          ? { type: 'gemini', apiKey: 'AIza-demo-not-a-real-key', baseURL: sim.baseURL(primary.provider), timeoutMs: 5_000 }
          : { type: 'openai', apiKey: 'sk-demo-not-a-real-key', baseURL: sim.baseURL(primary.provider), timeoutMs: 5_000 },
        [secondary.provider]: secondaryProvider(kind, sim),
      },
      chains: { default: [`${primary.provider}:${primary.model}`, `${secondary.provider}:${secondary.model}`] },
      // Short waits so a 429 hands over rather than holds a caller; a breaker that reacts within the outage.
      retry: { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 400, maxInlineWaitMs: 250 },
      breaker: {
        scope: 'provider', volumeThreshold: 5, errorThresholdPercentage: 50,
        windowMs: Math.max(400, Math.round(outageMs * 0.4)), resetTimeoutMs: Math.max(250, Math.round(outageMs * 0.25)),
      },
      log: { level: 'silent' },
    }),
  };
}
