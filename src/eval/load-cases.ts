import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { CasesError, parseCases } from './case-schema.js';
import type { EvalCase, PromptVariant } from './case-types.js';
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

/** A cases file's content: its cases, and the prompt variants it declares (`.json` and modules only). */
export interface EvalFile {
  cases: EvalCase[];
  prompts?: PromptVariant[];
}

/**
 * Loads eval cases from a file: `.jsonl` (one case a line), `.json` (an array of cases), or a
 * TypeScript / JavaScript module whose default export is an array of cases (see `defineCases`),
 * which may use zod schemas, RegExps and scorer functions. Throws `CasesError` naming each problem.
 * A file that declares prompts (`{ prompts, cases }`) gives its cases here; `loadEvalFile` gives both.
 */
export async function loadCases(file: string, cwd = process.cwd()): Promise<EvalCase[]> {
  return (await loadEvalFile(file, cwd)).cases;
}

/** Reads `{ prompts, cases }` (or a bare array of cases) from a module's export or a `.json` file. */
function split(value: unknown, name: string): { cases: unknown; prompts?: PromptVariant[] } {
  if (Array.isArray(value) || typeof value !== 'object' || value === null || !('cases' in value)) return { cases: value };
  const { cases, prompts } = value as { cases: unknown; prompts?: unknown };
  if (prompts === undefined) return { cases };
  const valid = Array.isArray(prompts) && prompts.every((p) => typeof p?.id === 'string' && p.id !== '' && typeof p?.template === 'string');
  if (!valid) throw new CasesError([`${name}: prompts must be an array of { id, template } (strings)`]);
  return { cases, prompts: (prompts as PromptVariant[]).map((p) => ({ id: p.id, template: p.template })) };
}

/**
 * Loads a cases file with its prompt variants: a module's default export (or `.json` content) may be
 * `{ prompts: [{ id, template }], cases: [...] }` instead of an array of cases. JSONL holds cases only.
 */
export async function loadEvalFile(file: string, cwd = process.cwd()): Promise<EvalFile> {
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
    const { cases, prompts } = mod.default !== undefined ? split(mod.default, name) : split({ cases: mod.cases, prompts: mod.prompts }, name);
    if (!Array.isArray(cases)) throw new CasesError([`${name}: the default export must be an array of cases (export default defineCases([...])) or { prompts, cases }`]);
    return withPrompts(parseCases(cases, (i) => `${name}[${i}]${idOf(cases[i])}`), prompts);
  }
  const text = await readFile(path, 'utf8');
  if (ext === '.json') {
    let content: unknown;
    try {
      content = JSON.parse(text);
    } catch (err) {
      throw new CasesError([`${name}: not valid JSON: ${(err as Error).message}`]);
    }
    const { cases, prompts } = split(content, name);
    if (!Array.isArray(cases)) throw new CasesError([`${name}: a .json cases file must hold an array of cases, or { prompts, cases }`]);
    return withPrompts(parseCases(cases, (i) => `${name}[${i}]${idOf(cases[i])}`), prompts);
  }
  return { cases: parseCasesJsonl(text, name) };
}

function withPrompts(cases: EvalCase[], prompts: PromptVariant[] | undefined): EvalFile {
  return prompts ? { cases, prompts } : { cases };
}

function idOf(value: unknown): string {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id ? ` (id "${id}")` : '';
}
