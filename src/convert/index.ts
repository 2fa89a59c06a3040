export { fromOpenAI } from './from-openai.js';
export type { FromOpenAIOptions } from './from-openai.js';
export { toOpenAI } from './to-openai.js';
export type { ToOpenAIOptions } from './to-openai.js';
export { openAIChunker } from './to-openai-chunks.js';
export type { OpenAIChunker, OpenAIChunkerOptions, OpenAIErrorFrame, RouterStreamEvent } from './to-openai-chunks.js';
