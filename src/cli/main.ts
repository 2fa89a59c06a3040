#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isRouterError } from '../errors.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import { packageVersion } from './version.js';

/** Every subcommand, loaded on demand so `switchyard chat` never pays for `eval`'s imports. */
const COMMANDS: Record<string, () => Promise<CliCommand>> = {
  chat: async () => (await import('./commands/chat.js')).command,
  demo: async () => (await import('./commands/demo.js')).command,
  embed: async () => (await import('./commands/embed.js')).command,
  simulate: async () => (await import('./commands/simulate.js')).command,
  serve: async () => (await import('./commands/serve.js')).command,
  eval: async () => (await import('./commands/eval.js')).command,
  spend: async () => (await import('./commands/spend.js')).command,
};

async function overview(): Promise<string> {
  const lines = ['Usage: switchyard <command> [options]', '', 'Commands:'];
  for (const load of Object.values(COMMANDS)) {
    const c = await load();
    lines.push(`  ${c.name.padEnd(10)} ${c.summary}`);
  }
  lines.push('', 'Run `switchyard <command> --help` for the options of one command, `switchyard --version` for the version.');
  return lines.join('\n');
}

/** Runs the CLI; returns the exit code. Errors a user can fix are one line on stderr, never a stack trace. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (!name || name === '--help' || name === '-h' || name === 'help') {
      io.stdout(`${await overview()}\n`);
      return name ? 0 : 2;
    }
    if (name === '--version' || name === '-v') {
      io.stdout(`${packageVersion()}\n`);
      return 0;
    }
    const load = COMMANDS[name];
    if (!load) throw new UsageError(`unknown command "${name}"; try: ${Object.keys(COMMANDS).join(', ')}`);
    const command = await load();
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout(`${command.usage}\n`);
      return 0;
    }
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`switchyard: ${err.message}\n`);
      return err.exitCode;
    }
    if (isRouterError(err)) {
      io.stderr(`switchyard: ${err.kind}: ${err.message.split('\n').join(' ')}\n`);
      return 1;
    }
    io.stderr(`switchyard: unexpected error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

/** True when this file is the program (also through npm's `bin` symlink), false when imported by tests. */
function invokedDirectly(): boolean {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  // `switchyard demo | head` closes stdout early: end quietly, as Unix tools do, not with a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  const io: CliIO = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
    cwd: process.cwd(),
  };
  main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
