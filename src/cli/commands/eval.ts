import { UsageError, type CliCommand } from '../command.js';

// Placeholder until its issue lands: replaced by the real command, never shipped as done.
export const command: CliCommand = {
  name: 'eval',
  summary: '(not built yet)',
  usage: 'switchyard eval: not built yet',
  async run() {
    throw new UsageError('switchyard eval is not built yet');
  },
};
