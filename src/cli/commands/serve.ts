import cluster from 'node:cluster';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import type { Gateway } from '../../gateway/index.js';
import { REDACT_PATHS } from '../../observe/redact.js';
import { createRouter, type Router } from '../../router.js';
import { evalShadowGrader } from '../../eval/shadow-grader.js';
import { openShadowLog, type ShadowLog } from '../../gateway/shadow-log.js';
import { parseFlags, wholeNumberFlag } from '../args.js';
import { UsageError, type CliCommand, type CliIO } from '../command.js';
import { asUsage, loadCliConfig as load } from '../config-source.js';
import { needsOfflineSimulator, SIMULATOR_URL_ENV, startOfflineSimulator } from '../offline.js';
import { drainRequested, parseWorkers, runPrimary, tellPrimary, workerPlace } from '../serve-workers.js';
import { storeIsLocal, WorkerShareError, workerShare, type SharedLimit } from '../../config/worker-share.js';
import { resolveConfig } from '../../config/resolve-config.js';
import type { ResolvedConfig, SwitchyardConfig } from '../../config/index.js';

const USAGE = `Usage: switchyard serve [--config FILE] [--port N] [--host HOST] [--workers N|auto] [--log-requests] [--no-pass-through]

Serves the router config as an OpenAI-compatible HTTP API, so any OpenAI client, in any language,
uses the chains by changing its base URL to http://HOST:PORT/v1 (\`model\` names a chain):
POST /v1/chat/completions (and streams), POST /v1/responses (the Responses API, previous_response_id
kept for gateway.responses.ttlMs), POST /v1/embeddings, GET /v1/models, GET /healthz,
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
  --workers N     gateway processes sharing the port (node:cluster; default 1, auto = one a core).
                  On a Redis store every limit is shared exactly; on the memory store each worker
                  holds 1/N of every limit (rpm, tpm, concurrency, spend), and says so at start
  --log-requests  a log line (stderr, pino at log.level) for every request; without it (and without
                  gateway.logRequests) only failed requests are logged
  --no-pass-through  translate every request (gateway.passThrough: false); by default a request an
                  OpenAI-compatible target takes as it is goes upstream as the client's bytes
  -h, --help      this help`;

const OPTIONS = { config: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, workers: { type: 'string' }, 'log-requests': { type: 'boolean' }, 'no-pass-through': { type: 'boolean' } } as const;

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
    const workers = parseWorkers(values.workers);
    const place = workerPlace(io.env);
    const simulator = !place && values.config === undefined && needsOfflineSimulator(io.env) ? await startOfflineSimulator() : undefined;
    let router: Router | undefined;
    let shadowLog: ShadowLog | undefined;
    try {
      // Workers read the config the primary already read (and said so of): quietly.
      const loaded = await load(place ? { ...io, stderr: () => {} } : io, values.config, simulator);
      const env = simulator ? { ...io.env, [SIMULATOR_URL_ENV]: simulator.url } : io.env;
      const offline = simulator ? 'switchyard: offline: no OPENAI_API_KEY or ANTHROPIC_API_KEY is set, so the built-in simulator answers\n' : '';
      const listeningLine = (url: string, chains: string[]) =>
        `switchyard gateway listening on ${url} (OpenAI base URL: ${url}/v1; chains: ${chains.join(', ')}${workers > 1 ? `; ${workers} workers` : ''})\n`;
      if (!place && workers > 1) {
        // The primary: check the config and the shares once, then let the workers serve.
        const shared = share(loaded, 0, workers);
        io.stderr(offline);
        let resolved: ResolvedConfig;
        try {
          resolved = resolveConfig(loaded, env);
        } catch (err) {
          throw asUsage(err);
        }
        io.stderr(shareLine(loaded, workers, shared.divided));
        // Conversations cannot be split like a limit: each worker keeps the ones it answered.
        if (storeIsLocal(loaded)) io.stderr('switchyard: on the memory store each worker keeps its own POST /v1/responses conversations, so a previous_response_id reaches another worker only on a Redis store\n');
        const info = { drainMs: resolved.gateway.drainMs, chains: Object.keys(resolved.chains) };
        return await runPrimary({
          argv, count: workers, io, drainMs: info.drainMs,
          env: simulator ? { [SIMULATOR_URL_ENV]: simulator.url } : {},
          listeningLine: (url) => listeningLine(url, info.chains),
        });
      }
      const config = place ? share(loaded, place.index, place.count).config : loaded;
      const level = config.log?.level ?? 'info';
      const logger = pino({ name: 'switchyard', level, redact: { paths: [...REDACT_PATHS], censor: '[REDACTED]' } }, { write: (line: string) => io.stderr(line) });
      let gateway: Gateway;
      try {
        // Shadow answers are scored with the eval expectations and judge, and written where the config says.
        router = createRouter(config, { logger, env, shadowGrader: evalShadowGrader });
        if (router.config.gateway.shadowLog !== undefined) shadowLog = openShadowLog(router, router.config.gateway.shadowLog);
        gateway = (await loadGateway()).createGateway(router, { logger, env, ...(values['log-requests'] ? { logRequests: true } : {}), ...(values['no-pass-through'] ? { passThrough: false } : {}) });
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
      if (place) {
        // A worker: the primary prints for every worker and says when to stop.
        const stop = drainRequested();
        await tellPrimary({ type: 'listening', url });
        await stop;
        const draining = gateway.drain();
        await tellPrimary({ type: 'draining' });
        const report = await draining;
        await tellPrimary({ type: 'stopped', inFlight: report.inFlight, cutOff: report.cutOff });
        return 0;
      }
      const stopped = stopSignal(io);
      io.stderr(offline);
      io.stdout(listeningLine(url, Object.keys(router.config.chains)));
      const signal = await stopped;
      io.stdout(`switchyard gateway draining (${signal}): no new requests; calls in flight have ${router.config.gateway.drainMs} ms to finish\n`);
      const report = await gateway.drain();
      io.stdout(`switchyard gateway stopped: ${report.inFlight} in flight at ${signal}, ${report.cutOff} cut off\n`);
      return 0;
    } finally {
      await router?.close();
      await shadowLog?.close();
      await simulator?.stop();
      // A worker's IPC channel would keep it alive after the command ends, its error included.
      // cluster.worker.disconnect (not process.disconnect, which cluster answers with exit code 0).
      if (place) cluster.worker?.disconnect();
    }
  },
};

/** Worker `index`'s share of the limits on a local store; on Redis every worker takes the config whole. */
function share(config: SwitchyardConfig, index: number, count: number): { config: SwitchyardConfig; divided: SharedLimit[] } {
  if (!storeIsLocal(config)) return { config, divided: [] };
  try {
    return workerShare(config, index, count);
  } catch (err) {
    if (err instanceof WorkerShareError) throw new UsageError(err.message);
    throw err;
  }
}

/** What the workers share, said once at start. */
function shareLine(config: SwitchyardConfig, count: number, divided: SharedLimit[]): string {
  if (!storeIsLocal(config)) return `switchyard: ${count} workers on one Redis store: every limit is shared exactly\n`;
  if (divided.length === 0) return `switchyard: ${count} workers on the memory store: no limits are set, so each worker keeps its own breakers and cooling\n`;
  const shown = divided.slice(0, 4).map((d) => `${d.path} ${d.total} -> ${d.share}`).join(', ');
  return `switchyard: ${count} workers on the memory store: each holds 1/${count} of every limit (${shown}${divided.length > 4 ? `, and ${divided.length - 4} more` : ''}); a Redis store shares them exactly\n`;
}

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
