import { readFileSync } from 'node:fs';

/**
 * The installed package's version, read from its package.json: two folders up from src/cli/ when run
 * from the sources (tsx), three from dist/src/cli/ when built. The first package.json named
 * switchyard-llm wins, so an app's own package.json above an install is never read.
 */
export function packageVersion(from: string | URL = import.meta.url): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    let text: string;
    try {
      text = readFileSync(new URL(up, from), 'utf8');
    } catch {
      continue;
    }
    const pkg = JSON.parse(text) as { name?: unknown; version?: unknown };
    if (pkg.name === 'switchyard-llm' && typeof pkg.version === 'string') return pkg.version;
  }
  throw new Error('cannot find the package.json of switchyard-llm beside the CLI');
}
