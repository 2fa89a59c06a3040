import { MemoryStore } from '../../src/store/memory-store.js';
import { storeContract } from './contract.js';

storeContract('MemoryStore', () => new MemoryStore());
