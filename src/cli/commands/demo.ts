import { parseArgs } from 'node:util';
import { parseFlags, wholeNumberFlag } from '../args.js';
import { UsageError, type CliCommand } from '../command.js';
import { demoIntro, demoSummary, phaseLine, progressLine } from '../demo-report.js';
import { DEMO_DEFAULTS, SECONDARIES, type DemoPlan, type SecondaryKind } from '../demo-plan.js';
import { liveLine } from '../live-line.js';
import { runDemo, type DemoProgress } from '../run-demo.js';

const USAGE = `Usage: switchyard demo [options]

Starts the provider simulator in-process and sends a few hundred calls, several at a time, through a
chain of two providers (OpenAI first, or Gemini with --primary gemini; Anthropic second, or Bedrock
with --secondary bedrock; the real wire formats, fake keys, no network) while the primary first hits
its rate limit, then has an outage, then recovers. Ends with a table per target:
requests, successes, 429s, 5xx, skipped without a request (circuit open, cooling, parked, local limit),
fall-throughs, breaker transitions, p50/p95 latency, and how many calls failed for the user.

Options:
  --calls N         calls in the whole run (default: ${DEMO_DEFAULTS.calls})
  --seconds N       length of the run; the phases scale with it (default: ${DEMO_DEFAULTS.seconds})
  --concurrency N   calls in flight at once, at most (default: ${DEMO_DEFAULTS.concurrency})
  --seed N          the simulator's seed (default: ${DEMO_DEFAULTS.seed})
  --primary API     openai or gemini: which API the rate-limited, then failing, primary speaks (default: openai)
  --secondary API   anthropic or bedrock: which API the healthy second target speaks (Bedrock through the AWS SDK) (default: anthropic)
  -h, --help        this help

Exit codes: 0 when no call failed for the user, 1 otherwise, 2 for a usage error.`;

const OPTIONS = { calls: { type: 'string' }, seconds: { type: 'string' }, concurrency: { type: 'string' }, seed: { type: 'string' }, primary: { type: 'string' }, secondary: { type: 'string' } } as const;

function primaryFlag(value: string | undefined): 'openai' | 'gemini' | undefined {
  if (value === undefined || value === 'openai' || value === 'gemini') return value;
  throw new UsageError(`--primary must be openai or gemini, not "${value}"`);
}

function secondaryFlag(value: string | undefined): SecondaryKind | undefined {
  if (value === undefined) return undefined;
  if (Object.hasOwn(SECONDARIES, value)) return value as SecondaryKind;
  throw new UsageError(`--secondary must be one of ${Object.keys(SECONDARIES).join(', ')} (got "${value}")`);
}

/** `switchyard demo` (what `npm start` runs). */
export const command: CliCommand = {
  name: 'demo',
  summary: 'watch a chain ride out a rate limit and an outage, on simulated providers (npm start)',
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseFlags(() => parseArgs({ args: argv, options: OPTIONS, strict: true }));
    const options = {
      calls: wholeNumberFlag('calls', values.calls, 3, 100_000),
      seconds: wholeNumberFlag('seconds', values.seconds, 1, 600),
      concurrency: wholeNumberFlag('concurrency', values.concurrency, 1, 10_000),
      seed: wholeNumberFlag('seed', values.seed, 0),
      primary: primaryFlag(values.primary),
      secondary: secondaryFlag(values.secondary),
    };
    // Everything goes to stdout: the live line only when stdout is a terminal, so a log stays plain.
    const live = liveLine(io.stdout, io.isTTY);
    let plan: DemoPlan | undefined;
    let last: DemoProgress | undefined;
    const result = await runDemo(options, {
      onStart: (p, url) => {
        plan = p;
        for (const line of demoIntro(p, url)) live.log(line);
      },
      onPhase: (index, p) => {
        // Without a live line, a log still shows where the previous phase left things.
        if (!io.isTTY && last && index > 0) live.log(`  ${progressLine(last, p)}`);
        live.log(phaseLine(index, p));
      },
      onProgress: (progress) => {
        last = progress;
        if (plan) live.set(progressLine(progress, plan));
      },
    }).finally(() => live.done());
    for (const line of demoSummary(result)) io.stdout(`${line}\n`);
    return result.failed === 0 ? 0 : 1;
  },
};
