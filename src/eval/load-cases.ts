import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { CasesError, parseCases } from './case-schema.js';
import type { EvalCase } from './case-types.js';
import { importModule } from '../config/import-module.js';

const MODULE_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs']);

/**
 * Parses JSONL cases text: one JSON object a line; blank lines and lines starting with `//` or `#`
 * are skipped. Problems name the file and line (`cases.jsonl:3: expect.regex: ...`).
 */
export function parseCasesJsonl(text: string, name = 'cases.jsonl'): EvalCase[] {
  const values: unknown[] = [];
  const lines: number[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('//') || trimmed.startsWith('#')) return;
    try {
      values.push(JSON.parse(trimmed));
      lines.push(i + 1);
    } catch (err) {
      problems.push(`${name}:${i + 1}: not valid JSON: ${(err as Error).message}`);
    }
  });
  // A file whose every line is broken JSON is not also reported as "no cases".
  if (values.length === 0 && problems.length > 0) throw new CasesError(problems);
  let cases: EvalCase[] = [];
  try {
    cases = parseCases(values, (i) => `${name}:${lines[i]}`);
  } catch (err) {
    if (!(err instanceof CasesError)) throw err;
    problems.push(...err.problems);
  }
  if (problems.length > 0) throw new CasesError(problems);
  return cases;
}

/**
 * Loads eval cases from a file: `.jsonl` (one case a line), `.json` (an array of cases), or a
 * TypeScript / JavaScript module whose default export is an array of cases (see `defineCases`),
 * which may use zod schemas, RegExps and scorer functions. Throws `CasesError` naming each problem.
 */
export async function loadCases(file: string, cwd = process.cwd()): Promise<EvalCase[]> {
  const path = resolve(cwd, file);
  const name = basename(path);
  if (!existsSync(path)) throw new CasesError([`cases file not found: ${path}`]);
  const ext = extname(path).toLowerCase();
  if (MODULE_EXTENSIONS.has(ext)) {
    let mod: Record<string, unknown>;
    try {
      mod = await importModule(path, () => new Error(`cannot load ${path}: TypeScript cases need tsx (npm install -D tsx), or write the cases as .mjs or .jsonl`));
    } catch (err) {
      throw new CasesError([`${name}: cannot load: ${(err as Error).message}`]);
    }
    const cases = mod.default ?? mod.cases;
    if (!Array.isArray(cases)) throw new CasesError([`${name}: the default export must be an array of cases (export default defineCases([...]))`]);
    return parseCases(cases, (i) => `${name}[${i}]${idOf(cases[i])}`);
  }
  const text = await readFile(path, 'utf8');
  if (ext === '.json') {
    let cases: unknown;
    try {
      cases = JSON.parse(text);
    } catch (err) {
      throw new CasesError([`${name}: not valid JSON: ${(err as Error).message}`]);
    }
    if (!Array.isArray(cases)) throw new CasesError([`${name}: a .json cases file must hold an array of cases`]);
    return parseCases(cases, (i) => `${name}[${i}]${idOf(cases[i])}`);
  }
  return parseCasesJsonl(text, name);
}

function idOf(value: unknown): string {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id ? ` (id "${id}")` : '';
}
