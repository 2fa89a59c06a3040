import { PRESETS } from '../../providers/shared/presets/catalog.js';
import type { ProviderConfig } from './schema.js';

type Compatible = Extract<ProviderConfig, { type: 'openai-compatible' }>;

/**
 * An `openai-compatible` provider with its preset's defaults filled in under what the config says:
 * `baseURL`, `apiKeyEnv` (unless a literal `apiKey` is given) and each capability the config leaves
 * unset. A provider without a preset must name its `baseURL`; that problem is pushed, not thrown,
 * so the config error lists it with every other one.
 */
export function applyPreset(name: string, provider: Compatible, problems: string[]): Compatible {
  if (!provider.preset) {
    if (!provider.baseURL) problems.push(`providers.${name}.baseURL: required for an openai-compatible provider without a preset`);
    return provider;
  }
  const preset = PRESETS[provider.preset];
  return {
    ...provider,
    baseURL: provider.baseURL ?? preset.baseURL,
    ...(provider.apiKey === undefined && provider.apiKeyEnv === undefined && preset.apiKeyEnv ? { apiKeyEnv: preset.apiKeyEnv } : {}),
    capabilities: { ...preset.capabilities, ...definedOnly(provider.capabilities) },
  };
}

/** True when the provider's preset serves a hosted API, whose key must be there (local servers need none). */
export function presetNeedsKey(provider: ProviderConfig): boolean {
  return provider.type === 'openai-compatible' && provider.preset !== undefined && PRESETS[provider.preset].apiKeyEnv !== undefined;
}

function definedOnly<T extends object>(record: T | undefined): Partial<T> {
  if (!record) return {};
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as Partial<T>;
}
