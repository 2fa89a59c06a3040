// The deterministic answers live in providers/shared/answers (shared with the simulator);
// re-exported here for the code and tests that import them from the fake provider.
export { approxTokens, fakeAnswer, promptTokens, stableHash, truncateToTokens } from '../shared/answers/index.js';
