export { VirtualClock } from './virtual-clock.js';
export type { VirtualClockOptions } from './virtual-clock.js';
export { adapterOf, fakeRequests, queuedCalls } from './router-internals.js';
export type { FakeAdapter } from '../../providers/fake/adapter.js';
export { fakeJudge } from './fake-judge.js';
export type { FakeJudgeReply, JudgeQuestion } from './fake-judge.js';
