import type { Block, StateStore } from './state-store.js';

/** In-process state: the default, and the reference the Redis store must behave like. */
export class MemoryStore implements StateStore {
  private readonly blocks = new Map<string, Block>();

  getBlock(key: string, nowMs: number): Block | undefined {
    const block = this.blocks.get(key);
    if (block === undefined) return undefined;
    if (block.untilMs > nowMs) return block;
    this.blocks.delete(key);
    return undefined;
  }

  setBlock(key: string, block: Block, nowMs: number): void {
    const current = this.getBlock(key, nowMs);
    if (current && current.untilMs >= block.untilMs) return;
    this.blocks.set(key, block);
  }

  close(): void {
    this.blocks.clear();
  }
}

/** @example const store = memoryStore(); */
export function memoryStore(): MemoryStore {
  return new MemoryStore();
}
