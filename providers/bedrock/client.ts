import http from 'node:http';
import https from 'node:https';
import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import type { AdapterContext } from '../types.js';

type Logger = AdapterContext['logger'];
import type { BedrockSdk } from './load-sdk.js';

/** What of a provider's config builds its client. */
export interface BedrockClientSettings {
  name: string;
  region?: string;
  profile?: string;
  baseURL?: string;
}

/** A client with the keep-alive sockets it owns. */
export interface BedrockClientHandle {
  client: BedrockRuntimeClient;
  /** Destroys every pooled socket: nothing of the client is left open after it. */
  close(): void;
}

/**
 * The SDK's own logger prints each command's input and output at `info` (prompts and answers), so
 * only its warnings and errors reach ours; nothing the SDK logs is a prompt at those levels.
 */
function quietLogger(logger: Logger, provider: string) {
  const child = logger.child({ provider, source: 'sdk' });
  const drop = () => {};
  return { debug: drop, info: drop, trace: drop, warn: (...args: unknown[]) => child.warn(String(args[0])), error: (...args: unknown[]) => child.error(String(args[0])) };
}

/**
 * A Bedrock runtime client for one provider: SDK retries off (`maxAttempts: 1`; Switchyard owns the
 * one retry loop), HTTP/1.1 on keep-alive agents of its own (closed with the router), the region and
 * credentials resolved by the SDK's default chains (`AWS_REGION`, `AWS_PROFILE`, the shared config
 * files, SSO, container and instance roles) unless the config names a region or profile, and
 * `baseURL` as the endpoint when set. No timeout of its own: every attempt runs under the router's
 * timer and AbortSignal (its traits say the SDK's timeouts do not cover the body).
 */
export function bedrockClient(sdk: BedrockSdk, settings: BedrockClientSettings, logger: Logger): BedrockClientHandle {
  const httpAgent = new http.Agent({ keepAlive: true, scheduling: 'lifo' });
  const httpsAgent = new https.Agent({ keepAlive: true, scheduling: 'lifo' });
  const requestHandler = new sdk.http.NodeHttpHandler({ httpAgent, httpsAgent });
  const client = new sdk.client.BedrockRuntimeClient({
    maxAttempts: 1,
    requestHandler,
    logger: quietLogger(logger, settings.name),
    ...(settings.region ? { region: settings.region } : {}),
    ...(settings.profile ? { profile: settings.profile } : {}),
    ...(settings.baseURL ? { endpoint: settings.baseURL } : {}),
  });
  return {
    client,
    close() {
      client.destroy();
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
