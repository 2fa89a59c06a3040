import type { Clock } from '../../clock.js';
import { INTERNALS, type Router, type RouterInternals } from '../../router.js';

/**
 * The clock a router reads its times from (the one its events' `startedAtMs` are on), so a span or
 * a latency built after the fact lines up with them. A router that is not one of ours: the system clock.
 */
export function routerClock(router: Router): Pick<Clock, 'now'> {
  const internals = (router as Router & { [INTERNALS]?: RouterInternals })[INTERNALS];
  return internals?.runtime.clock ?? { now: () => Date.now() };
}
