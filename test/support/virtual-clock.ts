export { VirtualClock } from '../../src/testing/virtual-clock.js';
