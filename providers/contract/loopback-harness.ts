import { startUpstream, type SeenRequest, type Upstream } from '../../test/support/upstream.js';
import type { Usage } from '../../src/types.js';
import { adapterFor, fixedClock } from '../test-support/adapter-harness.js';
import { CONTRACT_NOW_MS, EXPECT, type Arranged, type ContractCase, type ContractHarness } from './cases.js';

/**
 * What an adapter that speaks HTTP brings to the contract: its replies in its wire format and what it
 * must have sent. The rest is `loopbackHarness`'s: the server, the held request of the abort case,
 * and the usage and vectors the suite compares.
 */
export interface LoopbackWire {
  name: string;
  model: string;
  embedModel?: string;
  /** The paths an unscripted request goes to: the server holds it there until the client gives up (the abort case). */
  held: readonly string[];
  /** The provider's config, pointed at the loopback server's `url`; its `type` names the adapter. */
  provider(url: string): { type: string } & Record<string, unknown>;
  /** Scripts the case's replies on the server (the abort case scripts none). */
  script(upstream: Upstream, c: ContractCase): void;
  /** Requests the case has sent. @default every request the server saw */
  sent?(upstream: Upstream, c: ContractCase): number;
  /** The exact usage the success answers report; `cached_usage`'s is `EXPECT.cachedUsage`. */
  usage: { success: Usage; stream_success: Usage };
  /** The vectors the embed answer holds, in input order; absent where the adapter has no embeddings. */
  vectors?: number[][];
  /** Checks of what was sent, on the server's record of the case's first request (undefined: none came). */
  checkSent?(first: SeenRequest | undefined, c: ContractCase): void;
  cannotExpress?: ContractHarness['cannotExpress'];
}

/** A contract harness for an HTTP adapter: its real SDK or transport against a loopback server scripted per case. */
export function loopbackHarness(wire: LoopbackWire): ContractHarness {
  let upstream: Upstream;
  let onHang: (() => void) | undefined;
  const hang = () => {
    onHang?.();
    return { hang: true } as const;
  };

  function usageOf(c: ContractCase): Usage | undefined {
    if (c === 'success' || c === 'stream_success') return wire.usage[c];
    return c === 'cached_usage' ? EXPECT.cachedUsage : undefined;
  }

  return {
    name: wire.name,
    model: wire.model,
    ...(wire.embedModel ? { embedModel: wire.embedModel } : {}),
    async start() {
      upstream = await startUpstream();
      for (const path of wire.held) upstream.otherwise(path, hang);
    },
    async stop() {
      await upstream.close();
    },
    arrange(c: ContractCase): Arranged {
      upstream.reset();
      wire.script(upstream, c);
      const whenSent = new Promise<void>((resolve) => {
        onHang = resolve;
      });
      const provider = wire.provider(upstream.url);
      const usage = usageOf(c);
      return {
        adapter: adapterFor(provider.type, provider, fixedClock(CONTRACT_NOW_MS)),
        whenSent,
        sent: () => (wire.sent ? wire.sent(upstream, c) : upstream.count()),
        ...(c === 'embed' && wire.vectors ? { vectors: wire.vectors } : {}),
        ...(usage ? { usage } : {}),
        checkSent: () => wire.checkSent?.(upstream.requests[0], c),
      };
    },
    cannotExpress: wire.cannotExpress ?? {},
  };
}
