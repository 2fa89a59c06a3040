import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatIssues } from '../config/index.js';
import { scenarioSchema, type Scenario } from './options.js';

/** A scenario that cannot be used: a missing file, bad JSON, or a field that fails validation. */
export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** Validates a scenario object; throws `ScenarioError` naming every failing path on one line. */
export function parseScenario(input: unknown, source = 'scenario'): Scenario {
  const parsed = scenarioSchema.safeParse(input);
  if (!parsed.success) throw new ScenarioError(`${source}: ${formatIssues(parsed.error.issues).join('; ')}`);
  return parsed.data;
}

/**
 * Reads and validates a scenario JSON file.
 * @example const scenario = await loadScenario('scenarios/brownout.json');
 */
export async function loadScenario(file: string, cwd = process.cwd()): Promise<Scenario> {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ScenarioError(code === 'ENOENT' ? `scenario file not found: ${path}` : `cannot read ${path}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ScenarioError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  return parseScenario(json, path);
}
