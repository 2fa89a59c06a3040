import { UsageError, type CliCommand } from '../command.js';

// Placeholder until its issue lands: replaced by the real command, never shipped as done.
export const command: CliCommand = {
  name: 'demo',
  summary: '(not built yet)',
  usage: 'switchyard demo: not built yet',
  async run() {
    throw new UsageError('switchyard demo is not built yet');
  },
};
