import { runAdapterContract } from './contract.js';
import { fakeHarness } from './fake-harness.js';

runAdapterContract(fakeHarness());
