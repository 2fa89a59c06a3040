import { isRouterError } from '../errors.js';
import { createRouter } from '../router.js';
import { startSimulator, type SimRequestEvent, type SimulatorStats } from '../sim/index.js';
import { drive, scheduleCalls } from './demo-drive.js';
import { demoPlan, type DemoOptions, type DemoPlan } from './demo-plan.js';
import { DemoTally } from './demo-tally.js';

/** How the run went, for the summary (and for tests). */
export interface DemoResult {
  plan: DemoPlan;
  simulatorURL: string;
  tally: DemoTally;
  simulator: SimulatorStats;
  answered: number;
  /** Calls that ended in an error for the user: the number the demo is about. */
  failed: number;
  failures: Record<string, number>;
  latenciesMs: number[];
  elapsedMs: number;
}

/** Live progress while the demo runs. */
export interface DemoProgress {
  phase: number;
  launched: number;
  answered: number;
  failed: number;
  elapsedMs: number;
  breakers: Record<string, string>;
}

/** Callbacks for showing the run as it happens; all optional. */
export interface DemoHooks {
  /** The simulator is up and the run is about to start. */
  onStart?(plan: DemoPlan, simulatorURL: string): void;
  onPhase?(index: number, plan: DemoPlan): void;
  /** About ten times a second. */
  onProgress?(progress: DemoProgress): void;
  /** Each request the simulator received, once it decided the answer (its time, status and fault). */
  onRequest?(event: SimRequestEvent): void;
}

/**
 * Bedrock signs with the AWS default credential chain, whose first link is the environment: the
 * demo puts fake keys there for its run (the simulator checks no signature), so it never signs with
 * the user's real ones nor asks an instance metadata service, and puts back what was there.
 */
function demoAwsCredentials(): () => void {
  const fakes: Record<string, string> = {
    AWS_ACCESS_KEY_ID: 'AKIDSWITCHYARDDEMO00', AWS_SECRET_ACCESS_KEY: 'demo-not-a-real-secret-key', AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  const saved = Object.fromEntries(['AWS_SESSION_TOKEN', ...Object.keys(fakes)].map((name) => [name, process.env[name]]));
  delete process.env.AWS_SESSION_TOKEN;
  Object.assign(process.env, fakes);
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

const PROMPTS = [
  'What does a circuit breaker do?', 'Why should a quota error never be retried?', 'How long should I wait after a 429?',
  'What is a fallback chain?', 'Why put jitter on a retry?', 'What does retry-after mean?',
  'When is a timeout worth retrying?', 'What is admission control?', 'How do rate-limit headers work?', 'Why are retries dangerous?',
];

/**
 * Runs the demo: starts the simulator in-process, builds a router on the real SDKs pointing at it,
 * drives the planned calls through the default chain while the primary is rate-limited, then down,
 * then back, and returns what every target saw. Stops the router and the simulator before returning.
 */
export async function runDemo(options: DemoOptions = {}, hooks: DemoHooks = {}): Promise<DemoResult> {
  const plan = demoPlan(options);
  const restoreEnv = plan.secondary.provider === 'bedrock' ? demoAwsCredentials() : () => {};
  const sim = await startSimulator({ ...plan.scenario, onRequest: hooks.onRequest });
  const router = createRouter(plan.config(sim), { env: {} });
  const startedAtMs = sim.stats().startedAtMs;
  const targets = [`${plan.primary.provider}:${plan.primary.model}`, `${plan.secondary.provider}:${plan.secondary.model}`];
  const tally = new DemoTally(router, targets, startedAtMs);
  const failures: Record<string, number> = {};
  const latenciesMs: number[] = [];
  let launched = 0;
  let answered = 0;
  let failed = 0;
  let phase = 0;

  hooks.onStart?.(plan, sim.url);
  const phaseTimers = plan.phases.map((p, i) => setTimeout(() => {
    phase = i;
    hooks.onPhase?.(i, plan);
  }, Math.max(0, startedAtMs + p.startMs - Date.now())));
  const progress = () => hooks.onProgress?.({ phase, launched, answered, failed, elapsedMs: Date.now() - startedAtMs, breakers: router.breakerStates() });
  const ticker = setInterval(progress, 100);

  try {
    await drive(scheduleCalls(plan.phases), plan.concurrency, startedAtMs, async (call) => {
      launched++;
      try {
        const res = await router.chat({ messages: [{ role: 'user', content: PROMPTS[call.index % PROMPTS.length]! }], maxTokens: 60 });
        answered++;
        latenciesMs.push(res.latencyMs);
        tally.answered(`${res.provider}:${res.model}`);
      } catch (err) {
        failed++;
        const kind = isRouterError(err) ? err.kind : 'unexpected';
        failures[kind] = (failures[kind] ?? 0) + 1;
      }
    });
    progress();
  } finally {
    clearInterval(ticker);
    for (const timer of phaseTimers) clearTimeout(timer);
    tally.stop();
    await router.close();
    await sim.stop();
    restoreEnv();
  }
  return { plan, simulatorURL: sim.url, tally, simulator: sim.stats(), answered, failed, failures, latenciesMs, elapsedMs: Date.now() - startedAtMs };
}
