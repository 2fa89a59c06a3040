import { UsageError, type CliCommand } from '../command.js';

// Placeholder until its issue lands: replaced by the real command, never shipped as done.
export const command: CliCommand = {
  name: 'simulate',
  summary: '(not built yet)',
  usage: 'switchyard simulate: not built yet',
  async run() {
    throw new UsageError('switchyard simulate is not built yet');
  },
};
