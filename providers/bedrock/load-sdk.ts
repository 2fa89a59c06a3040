import { createRequire } from 'node:module';
import { RouterError } from '../../src/errors.js';

/** The optional peer dependency every `bedrock` provider needs. */
export const BEDROCK_SDK = '@aws-sdk/client-bedrock-runtime';
/** The HTTP/1.1 handler the client ships with (a dependency of the client, resolved from it). */
const HTTP_HANDLER = '@smithy/node-http-handler';

/** What the adapter takes from the SDK: the client, its commands, and the HTTP/1.1 handler. */
export interface BedrockSdk {
  client: typeof import('@aws-sdk/client-bedrock-runtime');
  http: typeof import('@smithy/node-http-handler');
}

const require = createRequire(import.meta.url);

function missing(provider: string, specifier: string, cause?: unknown): RouterError {
  return new RouterError('config', `provider "${provider}" (type bedrock) needs the optional package ${specifier}: npm install ${specifier}`, {
    provider, code: 'missing_dependency', cause,
  });
}

/**
 * Throws a `config` error naming the package to install when the SDK cannot be found, without loading
 * it: the router refuses a bedrock provider at `createRouter` rather than on its first call.
 */
export function checkBedrockSdk(provider: string, specifier = BEDROCK_SDK): void {
  try {
    require.resolve(specifier);
  } catch (err) {
    throw missing(provider, specifier, err);
  }
}

/**
 * Loads the SDK on the first Bedrock call, so applications without a bedrock provider never load
 * (or need) it. The HTTP/1.1 handler is resolved from the client's own location, where every package
 * manager puts its dependencies: the client's default handler speaks HTTP/2, which ConverseStream
 * does not need and plain `http://` endpoints (a proxy, the simulator) do not speak.
 */
export function loadBedrockSdk(provider: string, specifier = BEDROCK_SDK): BedrockSdk {
  let entry: string;
  try {
    entry = require.resolve(specifier);
  } catch (err) {
    throw missing(provider, specifier, err);
  }
  const client = require(entry) as BedrockSdk['client'];
  const http = createRequire(entry)(HTTP_HANDLER) as BedrockSdk['http'];
  return { client, http };
}
