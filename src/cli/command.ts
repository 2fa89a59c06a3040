/** Where a command writes: injected so tests can capture output without touching the process. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** True when stdout is a terminal (progress bars and colours only then). */
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** One `switchyard <name>` subcommand. `run` resolves to the process exit code. */
export interface CliCommand {
  name: string;
  /** One line for `switchyard --help`. */
  summary: string;
  /** The full `switchyard <name> --help` text. */
  usage: string;
  run(argv: string[], io: CliIO): Promise<number>;
}

/** A user mistake (bad flag, missing config, unknown chain): printed as one line, exit code 2, no stack. */
export class UsageError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
    this.name = 'UsageError';
  }
}
