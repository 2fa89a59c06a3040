import type { ProviderRequest } from '../../providers/types.js';
import { chatKind, type ChatValue } from '../../src/calls/chat.js';
import { streamKind, type OpenStream } from '../../src/calls/stream.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import type { AttemptContext } from '../../src/policy/steps/attempt-context.js';
import type { AttemptValue, CallKind } from '../../src/policy/steps/call-kind.js';
import { INTERNALS, createRouter, type Router, type RouterInternals } from '../../src/router.js';
import type { Call } from '../../src/policy/state/call.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { ChatRequest } from '../../src/types.js';
import { captureLogger } from '../support/capture-logger.js';
import { VirtualClock } from '../support/virtual-clock.js';

/** One router on a virtual clock, and what a pipeline step is handed, built the way run-target builds it. */
export interface StepBench {
  router: Router;
  rt: Runtime;
  clock: VirtualClock;
  /** A fresh call of the default chain and the context of its first target. */
  context<T extends AttemptValue = ChatValue>(options?: { request?: Partial<ChatRequest>; kind?: CallKind<ProviderRequest, T> }): AttemptContext<ProviderRequest, T, Runtime>;
}

export const streamStepKind: CallKind<ProviderRequest, OpenStream> = streamKind;

let seq = 0;

export function stepBench(config: Partial<SwitchyardConfig> = {}): StepBench {
  const clock = new VirtualClock();
  const router = createRouter({ providers: { p: { type: 'fake' } }, chains: { default: ['p:m'] }, retry: { maxAttempts: 2 }, ...config }, { logger: captureLogger().logger, clock, random: () => 0 });
  const rt = (router as Router & { [INTERNALS]: RouterInternals })[INTERNALS].runtime;
  return {
    router, rt, clock,
    context<T extends AttemptValue = ChatValue>({ request = {}, kind = chatKind as unknown as CallKind<ProviderRequest, T> } = {}) {
      const target = rt.chains.get('default')![0]!;
      const full: ChatRequest = { messages: [{ role: 'user', content: 'Say hello' }], ...request };
      const call: Call = {
        id: `step-${++seq}`, operation: kind.name, chain: 'default', targets: [target], request: full,
        tenant: { name: 'default', share: 1 }, needs: [], signal: full.signal, startedAtMs: clock.now(), attempts: [], cost: {},
        ...(full.timeoutMs !== undefined ? { timeoutMs: full.timeoutMs, deadlineAtMs: clock.now() + full.timeoutMs } : {}),
      };
      const payload = kind.payload(call, target);
      return {
        deps: rt, call, target, kind, lastResort: false, payload, endpoint: kind.endpoint(target),
        attemptTimeoutMs: Math.min(target.attemptTimeoutMs, kind.attemptTimeoutMs(call, target)),
        attempt: 1, startedAtMs: clock.now(), sentAtMs: 0, sent: false,
      };
    },
  };
}
