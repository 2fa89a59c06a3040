export { startSimulator } from './simulator.js';
export type { Simulator } from './simulator.js';
export { loadScenario, parseScenario, ScenarioError } from './scenario.js';
export { FAULT_KINDS, DEFAULT_PROVIDERS, PROVIDER_DEFAULTS } from './options.js';
export type { FaultKind, FaultRule, Scenario, SimProviderOptions, SimRequestEvent, SimulatorOptions } from './options.js';
export type { ProviderStats, SimulatorStats } from './stats.js';
export { formatGoDuration, formatRfc3339 } from './go-duration.js';
export { mulberry32 } from './random.js';
// The deterministic answers the simulator gives, for tests that assert on them.
export {
  approxTokens, chooseTools, embeddingFor, fakeAnswer, planAnswer, promptTokens, requestPromptTokens, toolResultAnswer, valueForSchema,
} from '../../providers/shared/answers/index.js';
