import { runAdapterContract } from './contract.js';
import { openAIHarness } from './openai-harness.js';

runAdapterContract(openAIHarness('openai-compatible'));
