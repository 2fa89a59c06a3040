export { defineConfig } from './define-config.js';
export { loadConfig } from './load-config.js';
export { resolveConfig, splitTarget, formatIssues } from './resolve-config.js';
export type { ResolvedConfig, ResolvedProvider, ShadowPolicy, Target } from './resolve-config.js';
export { shadowChainName } from './shadow-config.js';
export type { SwitchyardConfig, ParsedConfig, ProviderConfig, ProviderType, FakeStep, RetryPolicy, BreakerPolicy } from './schema.js';
