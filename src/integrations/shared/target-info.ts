import type { ResolvedConfig } from '../../config/index.js';

/** Where a provider's requests go, for `server.address` / `server.port`. */
export interface ServerInfo {
  address: string;
  port: number;
}

const DEFAULT_HOSTS: Readonly<Record<string, string>> = { openai: 'https://api.openai.com', anthropic: 'https://api.anthropic.com', gemini: 'https://generativelanguage.googleapis.com' };

/** The host and port a provider talks to: its `baseURL`, or its API's own; none for in-process providers. */
export function serverOf(config: ResolvedConfig, provider: string): ServerInfo | undefined {
  const p = config.providers[provider];
  // Bedrock's endpoint is per region; without a region in the config the SDK's chain picks it, unseen here.
  const bedrock = p?.type === 'bedrock' && p.region ? `https://bedrock-runtime.${p.region}.amazonaws.com` : undefined;
  const base = p?.baseURL ?? bedrock ?? (p ? DEFAULT_HOSTS[p.type] : undefined);
  if (!base) return undefined;
  try {
    const url = new URL(base);
    return { address: url.hostname, port: url.port ? Number(url.port) : url.protocol === 'http:' ? 80 : 443 };
  } catch {
    return undefined;
  }
}

/** The GenAI semantic conventions' `gen_ai.provider.name` of each API with a well-known name. */
const SYSTEMS: Readonly<Record<string, string>> = { openai: 'openai', anthropic: 'anthropic', gemini: 'gcp.gemini', bedrock: 'aws.bedrock' };

/**
 * A provider as OpenTelemetry's `gen_ai.provider.name` names it: `openai`, `anthropic`, `gcp.gemini`
 * and `aws.bedrock` for those APIs; for an `openai-compatible` server or an in-process provider, its
 * name in the config.
 */
export function providerSystem(config: ResolvedConfig, provider: string): string {
  const type = config.providers[provider]?.type;
  return (type && Object.hasOwn(SYSTEMS, type) ? SYSTEMS[type] : undefined) ?? provider;
}
