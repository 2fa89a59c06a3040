import { runAdapterContract } from './contract.js';
import { openAIResponsesHarness } from './openai-responses-harness.js';

runAdapterContract(openAIResponsesHarness());
