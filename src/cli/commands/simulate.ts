import { parseArgs } from 'node:util';
import { loadScenario, ScenarioError, startSimulator, type Scenario, type Simulator } from '../../sim/index.js';
import { parseFlags, wholeNumberFlag } from '../args.js';
import { UsageError, type CliCommand } from '../command.js';
import { liveLine } from '../live-line.js';
import { SIMULATOR_URL_ENV } from '../offline.js';
import { describeSimulator, statsLine, statsTable } from '../sim-report.js';

const USAGE = `Usage: switchyard simulate [--port N] [--scenario FILE] [options]

Runs the provider simulator until Ctrl-C: OpenAI Chat Completions and Anthropic Messages on loopback,
with the real headers, RPM/TPM limits enforced like the providers do, and the scenario's faults.
Point an SDK's baseURL at a provider's URL (any API key is accepted), or run
  ${SIMULATOR_URL_ENV}=http://127.0.0.1:PORT switchyard chat "hello"
GET /_sim/stats returns the live counters as JSON.

Options:
  --port N          port to listen on (default: 8787; 0 picks a free one)
  --host HOST       interface to listen on (default: 127.0.0.1)
  --scenario FILE   providers, limits, latency, faults and seed, as JSON (see scenarios/)
  --seed N          overrides the scenario's seed (same seed, same run)
  --for SECONDS     stop by itself after this long (default: run until Ctrl-C)
  -h, --help        this help

Without --scenario it serves one OpenAI provider (openai) and one Anthropic provider (anthropic),
with large limits and no faults.`;

const OPTIONS = {
  port: { type: 'string' }, host: { type: 'string' }, scenario: { type: 'string' }, seed: { type: 'string' }, for: { type: 'string' },
} as const;

/** Resolves on SIGINT or SIGTERM, or after `forMs`. */
function stopSignal(forMs: number | undefined): Promise<string> {
  return new Promise((resolve) => {
    const timer = forMs === undefined ? undefined : setTimeout(() => done('time is up'), forMs);
    const onInt = () => done('interrupted');
    const onTerm = () => done('terminated');
    function done(why: string) {
      clearTimeout(timer);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(why);
    }
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
  });
}

/** `switchyard simulate`. */
export const command: CliCommand = {
  name: 'simulate',
  summary: 'run simulated OpenAI and Anthropic APIs on loopback, with rate limits and faults',
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseFlags(() => parseArgs({ args: argv, options: OPTIONS, strict: true }));
    const port = wholeNumberFlag('port', values.port, 0, 65_535) ?? 8787;
    const seed = wholeNumberFlag('seed', values.seed, 0);
    const forSeconds = wholeNumberFlag('for', values.for, 1);
    let scenario: Scenario = {};
    if (values.scenario) {
      try {
        scenario = await loadScenario(values.scenario, io.cwd);
      } catch (err) {
        if (err instanceof ScenarioError) throw new UsageError(err.message);
        throw err;
      }
    }
    if (seed !== undefined) scenario = { ...scenario, seed };

    let sim: Simulator;
    try {
      sim = await startSimulator({ ...scenario, port, host: values.host ?? '127.0.0.1' });
    } catch (err) {
      throw new UsageError(`${(err as Error).message}${port !== 0 ? ' (pass --port 0 for a free one)' : ''}`);
    }
    io.stdout(`switchyard simulator listening on ${sim.url} (seed ${scenario.seed ?? 1})\n`);
    if (scenario.description) io.stdout(`  ${scenario.description}\n`);
    for (const line of describeSimulator(sim, scenario)) io.stdout(`  ${line}\n`);
    io.stdout(`  stats: ${sim.url}/_sim/stats · try: ${SIMULATOR_URL_ENV}=${sim.url} switchyard chat "hello"\n`);
    io.stdout(forSeconds === undefined ? 'Ctrl-C stops it.\n' : `Stops in ${forSeconds} s.\n`);

    const live = liveLine(io.stderr, io.isTTY);
    const ticker = setInterval(() => live.set(statsLine(sim.stats())), 250);
    const why = await stopSignal(forSeconds === undefined ? undefined : forSeconds * 1000);
    clearInterval(ticker);
    live.done();
    await sim.stop();
    io.stdout(`\nsimulator stopped (${why}) after ${(sim.stats().uptimeMs / 1000).toFixed(1)} s\n`);
    for (const line of statsTable(sim.stats())) io.stdout(`${line}\n`);
    return 0;
  },
};
