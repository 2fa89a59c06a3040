import { UsageError, type CliCommand } from '../command.js';

// Placeholder until its issue lands: replaced by the real command, never shipped as done.
export const command: CliCommand = {
  name: 'chat',
  summary: '(not built yet)',
  usage: 'switchyard chat: not built yet',
  async run() {
    throw new UsageError('switchyard chat is not built yet');
  },
};
