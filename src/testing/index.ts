export { VirtualClock } from './virtual-clock.js';
export type { VirtualClockOptions } from './virtual-clock.js';
