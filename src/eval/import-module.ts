import { pathToFileURL } from 'node:url';

/**
 * Imports a JavaScript or TypeScript module by path. Plain Node 20 cannot import TypeScript, so a
 * `.ts` file goes through tsx when Node refuses it (the same route `loadConfig` takes).
 */
export async function importModule(path: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path).href;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
    let tsx: { tsImport(specifier: string, parent: string): Promise<Record<string, unknown>> };
    try {
      tsx = (await import('tsx/esm/api')) as typeof tsx;
    } catch {
      throw new Error(`cannot load ${path}: TypeScript cases need tsx (npm install -D tsx), or write the cases as .mjs or .jsonl`);
    }
    return tsx.tsImport(url, import.meta.url);
  }
}
