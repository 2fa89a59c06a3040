import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { isRouterError, type RouterError } from '../../errors.js';
import { REDACT_PATHS } from '../../observe/redact.js';
import { createRouter, type Router } from '../../router.js';
import type { ChatRequest } from '../../types.js';
import { parseFlags, wholeNumberFlag } from '../args.js';
import { attemptLines } from '../attempt-lines.js';
import { UsageError, type CliCommand, type CliIO } from '../command.js';
import { asUsage, loadCliConfig as load } from '../config-source.js';
import { needsOfflineSimulator, offlineKind, SIMULATOR_URL_ENV, startOfflineSimulator } from '../offline.js';
import { ms } from '../table.js';

const USAGE = `Usage: switchyard chat "prompt" [options]

Answers one prompt through a chain of the router config: the answer goes to stdout; the target that
answered, its latency and tokens go to stderr.

With neither OPENAI_API_KEY nor ANTHROPIC_API_KEY set, the default config answers offline through the
built-in provider simulator, started in-process (the real SDKs and wire formats, no network). Set
${SIMULATOR_URL_ENV} to use one started with \`switchyard simulate\` instead.

Options:
  --chain NAME        the chain to ask (default: default)
  --config FILE       router config (default: ./router.config.ts if there is one, else the built-in default)
  --system TEXT       a system message before the prompt
  --max-tokens N      at most N tokens in the answer
  --verbose           print every attempt: target, outcome, status, latency, wait, request id
  -h, --help          this help

Exit codes: 0 answered, 1 the call failed, 2 a usage error (bad flag, missing config, unknown chain).`;

const OPTIONS = {
  chain: { type: 'string' }, config: { type: 'string' }, system: { type: 'string' }, 'max-tokens': { type: 'string' },
  verbose: { type: 'boolean' },
} as const;



/** The one line that says no real API is answering, and why. */
function offlineNote(kind: 'simulator' | 'fake', externalURL: string | undefined): string {
  if (kind === 'fake') return 'every target of this chain is an in-process fake provider';
  if (externalURL) return `answering through the simulator at ${externalURL}`;
  return 'no OPENAI_API_KEY or ANTHROPIC_API_KEY is set, so the built-in simulator answers (same SDKs and wire format, no network)';
}

function printAttempts(io: CliIO, verbose: boolean, attempts: RouterError['attempts']): void {
  if (verbose) for (const line of attemptLines(attempts)) io.stderr(`  ${line}\n`);
}

/** `switchyard chat`. */
export const command: CliCommand = {
  name: 'chat',
  summary: 'answer one prompt through a chain (offline through the simulator when no key is set)',
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(() => parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true }));
    const prompt = positionals.join(' ').trim();
    if (!prompt) throw new UsageError('missing the prompt: switchyard chat "your question" (see switchyard chat --help)');
    const maxTokens = wholeNumberFlag('max-tokens', values['max-tokens']);
    const chain = values.chain ?? 'default';
    const verbose = values.verbose ?? false;

    const simulator = needsOfflineSimulator(io.env) ? await startOfflineSimulator() : undefined;
    let router: Router | undefined;
    try {
      const config = await load(io, values.config, simulator);
      const logger = pino({ name: 'switchyard', level: 'warn', redact: { paths: [...REDACT_PATHS], censor: '[REDACTED]' } }, { write: (line: string) => io.stderr(line) });
      const env = simulator ? { ...io.env, [SIMULATOR_URL_ENV]: simulator.url } : io.env;
      try {
        router = createRouter(config, { logger, env });
      } catch (err) {
        throw asUsage(err);
      }
      const chains = Object.keys(router.config.chains);
      if (!chains.includes(chain)) throw new UsageError(`unknown chain "${chain}" (the config has: ${chains.join(', ')})`);
      const simulatorURL = simulator?.url ?? io.env[SIMULATOR_URL_ENV];
      const offline = offlineKind(router.config, chain, simulatorURL);
      if (offline) io.stderr(`switchyard: offline: ${offlineNote(offline, simulator ? undefined : simulatorURL)}\n`);

      const request: ChatRequest = {
        chain,
        messages: [...(values.system ? [{ role: 'system' as const, content: values.system }] : []), { role: 'user', content: prompt }],
        ...(maxTokens !== undefined ? { maxTokens } : {}),
      };
      try {
        const res = await router.chat(request);
        io.stdout(`${res.text}\n`);
        printAttempts(io, verbose, res.attempts);
        const tries = res.attempts.length === 1 ? '1 attempt' : `${res.attempts.length} attempts`;
        const tokens = res.usage ? `${res.usage.inputTokens} in / ${res.usage.outputTokens} out tokens` : 'tokens unknown';
        io.stderr(`-- ${res.provider}:${res.model} · ${ms(res.latencyMs)} · ${tries} · ${tokens}\n`);
        return 0;
      } catch (err) {
        if (isRouterError(err)) printAttempts(io, verbose, err.attempts);
        throw err;
      }
    } finally {
      await router?.close();
      await simulator?.stop();
    }
  },
};
