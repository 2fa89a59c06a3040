import { runAdapterContract } from './contract.js';
import { geminiHarness } from './gemini-harness.js';

runAdapterContract(geminiHarness());
