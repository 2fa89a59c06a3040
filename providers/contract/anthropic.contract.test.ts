import { runAdapterContract } from './contract.js';
import { anthropicHarness } from './anthropic-harness.js';

runAdapterContract(anthropicHarness());
