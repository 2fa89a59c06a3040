// Deterministic answers shared by the simulator (src/sim) and the in-process fake provider.
export { stableHash, stableHashHex } from './stable-hash.js';
export { mulberry32, randomFor, type Random } from './prng.js';
export { BASE58, BASE62, idFromKey, toolCallId } from './ids.js';
export { approxTokens, FILE_BYTES_PER_TOKEN, IMAGE_TOKENS, partTokens, promptTokens, requestPromptTokens, toolsTokens } from './tokens.js';
export { truncateToTokens } from './truncate.js';
export { fakeAnswer } from './fake-text.js';
export { MAX_SCHEMA_DEPTH, valueForSchema } from './schema-value.js';
export { chooseTools, mentions, type NamedTool } from './tool-choice.js';
export { toolResultAnswer } from './tool-result-text.js';
export { breakJson, jsonAnswerText, type AnswerFormat } from './json-answer.js';
export { REASONING_TOKENS, reasoningTokensFor } from './reasoning.js';
export { planAnswer, type Answer, type AnswerOptions, type AnswerRequest, type AnswerTool, type PlannedToolCall } from './answer.js';
export { answerChunks, argumentFragments, ARGUMENT_FRAGMENT_CHARS, splitPieces, type AnswerChunk } from './chunks.js';
export { acceptsDimensions, DEFAULT_EMBEDDING_DIMENSIONS, embeddingFor, embeddingTokens, embeddingToBase64, nativeDimensions } from './embedding.js';
