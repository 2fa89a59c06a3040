import { afterEach, beforeEach } from 'vitest';
import { startUpstream, type Upstream } from './upstream.js';

/** What a test leaves to close: a closer, or anything with `close()` (a router). */
export type Closable = (() => Promise<void>) | { close(): Promise<void> };

/**
 * A fresh loopback upstream for every test of a file: started before each test and handed to `set`;
 * after each test, `first` runs (a file's own teardown, its gateway harness), then what the test
 * pushed onto the returned list is closed in order (its routers, its closers), then the upstream.
 * Call it at the top level of a test file.
 * @example let up: Upstream; const routers = upstreamPerTest<Router>((u) => (up = u));
 */
export function upstreamPerTest<C extends Closable = () => Promise<void>>(set: (up: Upstream) => void, first?: () => Promise<void> | undefined): C[] {
  const close: C[] = [];
  let current: Upstream | undefined;
  beforeEach(async () => {
    current = await startUpstream();
    set(current);
  });
  afterEach(async () => {
    await first?.();
    for (const c of close.splice(0)) await (typeof c === 'function' ? c() : c.close());
    await current?.close();
    current = undefined;
  });
  return close;
}
