import { pathToFileURL } from 'node:url';

/**
 * Imports a JavaScript or TypeScript module by path (a config, a cases file). Plain Node 20 cannot
 * import TypeScript, so a `.ts` file Node refuses goes through tsx, when it is installed; otherwise
 * `tsxMissing` says what to do instead.
 */
export async function importModule(path: string, tsxMissing: () => Error): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path).href;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
    let tsx: { tsImport(specifier: string, parent: string): Promise<Record<string, unknown>> };
    try {
      tsx = (await import('tsx/esm/api')) as typeof tsx;
    } catch {
      throw tsxMissing();
    }
    return tsx.tsImport(url, import.meta.url);
  }
}
