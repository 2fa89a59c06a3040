import { parseArgs } from 'node:util';
import { pino } from 'pino';
import type { Gateway } from '../../gateway/index.js';
import { REDACT_PATHS } from '../../observe/redact.js';
import { createRouter, type Router } from '../../router.js';
import { parseFlags, wholeNumberFlag } from '../args.js';
import { UsageError, type CliCommand, type CliIO } from '../command.js';
import { asUsage, loadCliConfig as load } from '../config-source.js';
import { needsOfflineSimulator, SIMULATOR_URL_ENV, startOfflineSimulator } from '../offline.js';

const USAGE = `Usage: switchyard serve [--config FILE] [--port N] [--host HOST]

Serves the router config as an OpenAI-compatible HTTP API, so any OpenAI client, in any language,
uses the chains by changing its base URL to http://HOST:PORT/v1 (\`model\` names a chain):
POST /v1/chat/completions (and streams), POST /v1/embeddings, GET /v1/models, GET /healthz,
GET /readyz, GET /metrics. Prints the URL once it listens. SIGTERM or Ctrl-C stops accepting, lets
calls in flight finish within gateway.drainMs, and exits 0.

Keys: gateway.keys in the config (each { keyEnv | keyHash, tenant, chains? }); every /v1 request must
then send Authorization: Bearer <key>. Without keys it serves loopback only, as tenant "default".

With neither OPENAI_API_KEY nor ANTHROPIC_API_KEY set and no --config, the default config answers
offline through the built-in simulator, as \`switchyard chat\` does.

Options:
  --config FILE   router config (default: ./router.config.ts if there is one, else the built-in default)
  --port N        port to listen on (default: 8787; 0 picks a free one)
  --host HOST     interface to listen on (default: 127.0.0.1; anything else needs gateway.keys)
  -h, --help      this help`;

const OPTIONS = { config: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } } as const;

/** Resolves with the first SIGINT or SIGTERM; a second one while draining ends the process at once. */
function stopSignal(io: CliIO): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      process.once('SIGINT', force);
      process.once('SIGTERM', force);
      resolve(signal);
    };
    const force = () => {
      io.stderr('switchyard: second signal while draining: exiting now\n');
      process.exit(1);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}



/** `switchyard serve`. */
export const command: CliCommand = {
  name: 'serve',
  summary: 'serve the chains as an OpenAI-compatible HTTP API (any language, any OpenAI client)',
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseFlags(() => parseArgs({ args: argv, options: OPTIONS, strict: true }));
    const port = wholeNumberFlag('port', values.port, 0, 65_535) ?? 8787;
    const host = values.host ?? '127.0.0.1';
    const simulator = values.config === undefined && needsOfflineSimulator(io.env) ? await startOfflineSimulator() : undefined;
    let router: Router | undefined;
    try {
      const config = await load(io, values.config, simulator);
      const env = simulator ? { ...io.env, [SIMULATOR_URL_ENV]: simulator.url } : io.env;
      const level = config.log?.level ?? 'info';
      const logger = pino({ name: 'switchyard', level, redact: { paths: [...REDACT_PATHS], censor: '[REDACTED]' } }, { write: (line: string) => io.stderr(line) });
      let gateway: Gateway;
      try {
        router = createRouter(config, { logger, env });
        gateway = (await loadGateway()).createGateway(router, { logger, env });
      } catch (err) {
        throw asUsage(err);
      }
      let url: string;
      try {
        url = await gateway.listen({ port, host });
      } catch (err) {
        const e = asUsage(err);
        if (e instanceof UsageError) throw e;
        throw new UsageError(`cannot listen on ${host}:${port}: ${(err as Error).message}${port !== 0 ? ' (pass --port 0 for a free one)' : ''}`);
      }
      const stopped = stopSignal(io);
      if (simulator) io.stderr('switchyard: offline: no OPENAI_API_KEY or ANTHROPIC_API_KEY is set, so the built-in simulator answers\n');
      io.stdout(`switchyard gateway listening on ${url} (OpenAI base URL: ${url}/v1; chains: ${Object.keys(router.config.chains).join(', ')})\n`);
      const signal = await stopped;
      io.stdout(`switchyard gateway draining (${signal}): no new requests; calls in flight have ${router.config.gateway.drainMs} ms to finish\n`);
      const report = await gateway.drain();
      io.stdout(`switchyard gateway stopped: ${report.inFlight} in flight at ${signal}, ${report.cutOff} cut off\n`);
      return 0;
    } finally {
      await router?.close();
      await simulator?.stop();
    }
  },
};

/**
 * The gateway module, loaded only when `serve` runs: it needs fastify, an optional peer dependency,
 * and every other command (and `switchyard --help`, which reads each command's summary) must work
 * without it.
 */
async function loadGateway(): Promise<typeof import('../../gateway/index.js')> {
  try {
    return await import('../../gateway/index.js');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && /fastify/.test(String((err as Error).message))) {
      throw new UsageError('switchyard serve needs fastify, an optional peer dependency: npm install fastify@5');
    }
    throw err;
  }
}
