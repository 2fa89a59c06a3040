import { runAdapterContract } from './contract.js';
import { bedrockHarness } from './bedrock-harness.js';

runAdapterContract(bedrockHarness());
