// switchyard-llm/bullmq: BullMQ workers that snooze, cancel or retry a job as the router's error says.
export { routerProcessor } from './router-processor.js';
export type { JobProcessor, RouterProcessorOptions } from './router-processor.js';
export { jobVerdict } from './job-verdict.js';
export type { JobVerdict } from './job-verdict.js';
