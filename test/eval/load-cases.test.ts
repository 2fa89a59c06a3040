import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CasesError, parseCases } from '../../src/eval/case-schema.js';
import { loadCases, loadEvalFile, parseCasesJsonl } from '../../src/eval/load-cases.js';

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof CasesError) return err.problems;
    throw err;
  }
  throw new Error('expected a CasesError');
}

const line = (value: unknown) => JSON.stringify(value);

describe('JSONL cases', () => {
  it('reads one case a line, skipping blank and comment lines, and normalises prompt and system into messages', () => {
    const cases = parseCasesJsonl([
      '# support cases',
      line({ id: 'a', prompt: 'Hi?', system: 'Be brief.', options: { maxTokens: 20 }, expect: { contains: 'hello', regex: { pattern: 'h', flags: 'gi' } } }),
      '',
      line({ id: 'b', messages: [{ role: 'user', content: 'Yo' }] }),
    ].join('\n'));
    expect(cases.map((c) => c.id)).toEqual(['a', 'b']);
    expect(cases[0]!.messages).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi?' }]);
    expect(cases[0]!.options).toEqual({ maxTokens: 20 });
    expect(cases[0]!.expect.contains).toEqual(['hello']);
    expect(cases[0]!.expect.regex!.flags).toBe('i');
    expect(cases[1]!.expect).toEqual({});
  });

  it.each([
    ['a line that is not JSON', '{"id": "a", "prompt": "x"\n{oops', 'cases.jsonl:2: not valid JSON'],
    ['a case with neither messages nor prompt', line({ id: 'a' }), 'cases.jsonl:1: messages: a case needs messages or a prompt'],
    ['a case with both messages and prompt', line({ id: 'a', prompt: 'x', messages: [{ role: 'user', content: 'y' }] }), 'cases.jsonl:1: prompt: give either messages or prompt'],
    ['a missing id', line({ prompt: 'x' }), 'cases.jsonl:1: id:'],
    ['an unknown field', line({ id: 'a', prompt: 'x', expected: {} }), 'cases.jsonl:1: Unrecognized key: "expected"'],
    ['an unknown expectation', line({ id: 'a', prompt: 'x', expect: { startsWith: 'x' } }), 'cases.jsonl:1: expect: Unrecognized key: "startsWith"'],
    ['a bad regular expression', line({ id: 'a', prompt: 'x', expect: { regex: '(' } }), 'cases.jsonl:1: expect.regex: Invalid regular expression'],
    ['a JSON Schema zod cannot use', line({ id: 'a', prompt: 'x', expect: { schema: { type: 'bogus' } } }), 'cases.jsonl:1: expect.schema: not a usable JSON Schema'],
    ['a scorer in JSONL', line({ id: 'a', prompt: 'x', expect: { score: 'len < 10' } }), 'cases.jsonl:1: expect.score: expected a function'],
    ['a negative maxLength', line({ id: 'a', prompt: 'x', expect: { maxLength: -1 } }), 'cases.jsonl:1: expect.maxLength:'],
    ['a bad call option', line({ id: 'a', prompt: 'x', options: { temperature: 5 } }), 'cases.jsonl:1: options.temperature:'],
    ['a wrong role', line({ id: 'a', messages: [{ role: 'robot', content: 'x' }] }), 'cases.jsonl:1: messages[0].role:'],
    ['an empty file', '\n# nothing\n', 'no cases'],
  ])('names the line and field of %s', (_name, text, problem) => {
    expect(problemsOf(() => parseCasesJsonl(text)).join('\n')).toContain(problem);
  });

  it('refuses duplicate ids, naming both lines', () => {
    const problems = problemsOf(() => parseCasesJsonl([line({ id: 'a', prompt: 'x' }), line({ id: 'b', prompt: 'y' }), line({ id: 'a', prompt: 'z' })].join('\n')));
    expect(problems).toEqual(['cases.jsonl:3: id: duplicate id "a" (first used at cases.jsonl:1)']);
  });

  it('reports every problem of the file at once', () => {
    const problems = problemsOf(() => parseCasesJsonl([line({ id: 'a' }), '{', line({ id: 'c', prompt: 'x', expect: { maxLength: 0 } })].join('\n')));
    expect(problems).toHaveLength(3);
    expect(problems.map((p) => p.split(':')[1])).toEqual(['2', '1', '3']);
  });
});

describe('loadCases', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-cases-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the TypeScript form, with zod schemas, RegExps and scorer functions kept as they are', async () => {
    const cases = await loadCases('examples/eval/cases.ts', resolve(import.meta.dirname, '../..'));
    expect(cases.map((c) => c.id)).toEqual(['capital', 'refund-json', 'sentiment', 'no-pii', 'apology', 'team', 'triage', 'steps']);
    const triage = cases.find((c) => c.id === 'triage')!;
    expect(typeof triage.expect.score).toBe('function');
    expect(triage.expect.schema!.safeParse({ priority: 'high', team: 't', summary: 's' }).success).toBe(true);
  });

  it('loads a TypeScript module whose default export is an array, naming a bad case by index and id', async () => {
    const file = join(dir, 'bad.ts');
    writeFileSync(file, "export default [{ id: 'ok', prompt: 'x', expect: { regex: /x/i } }, { id: 'broken', prompt: 'y', expect: { minScore: 0.5 } }];\n");
    await expect(loadCases(file)).rejects.toThrow('bad.ts[1] (id "broken"): expect.minScore: only with score');
  });

  it('loads prompts with the cases from a .json file or a module, and refuses prompts of another shape', async () => {
    const prompts = [{ id: 'p', template: 'Hi {{name}}' }];
    writeFileSync(join(dir, 'prompted.json'), JSON.stringify({ prompts, cases: [{ id: 'a', vars: { name: 'Ada' }, weight: 2 }] }));
    writeFileSync(join(dir, 'prompted.mjs'), `export default ${JSON.stringify({ prompts, cases: [{ id: 'b', vars: { name: 'Bo' } }] })};`);
    writeFileSync(join(dir, 'bad-prompts.json'), JSON.stringify({ prompts: [{ id: 'p' }], cases: [{ id: 'a', prompt: 'x' }] }));
    const json = await loadEvalFile('prompted.json', dir);
    expect(json.prompts).toEqual(prompts);
    expect(json.cases.map((c) => [c.id, c.vars, c.weight, c.messages])).toEqual([['a', { name: 'Ada' }, 2, []]]);
    expect((await loadEvalFile('prompted.mjs', dir)).prompts).toEqual(prompts);
    expect((await loadCases('prompted.mjs', dir)).map((c) => c.id)).toEqual(['b']);
    await expect(loadEvalFile('bad-prompts.json', dir)).rejects.toThrow('prompts must be an array of { id, template } (strings)');
    writeFileSync(join(dir, 'bare.json'), JSON.stringify([{ id: 'a', prompt: 'x' }]));
    expect(await loadEvalFile('bare.json', dir)).not.toHaveProperty('prompts');
  });

  it('loads a .json array and refuses a .json object', async () => {
    writeFileSync(join(dir, 'list.json'), JSON.stringify([{ id: 'a', prompt: 'x' }]));
    writeFileSync(join(dir, 'object.json'), JSON.stringify({ id: 'a', prompt: 'x' }));
    expect((await loadCases('list.json', dir)).map((c) => c.id)).toEqual(['a']);
    await expect(loadCases('object.json', dir)).rejects.toThrow('must hold an array of cases');
  });

  it('names a file that does not exist', async () => {
    await expect(loadCases('nope.jsonl', dir)).rejects.toThrow(`cases file not found: ${join(dir, 'nope.jsonl')}`);
  });

  it('normalises an already normalised case to the same case', () => {
    const [once] = parseCasesJsonl(line({ id: 'a', prompt: 'x', expect: { contains: 'y', regex: 'z', schema: { type: 'string' } } }));
    const [twice] = parseCases([once], () => 'again');
    expect(twice!.messages).toEqual(once!.messages);
    expect(twice!.expect.regex).toEqual(once!.expect.regex);
    expect(twice!.expect.schema).toBe(once!.expect.schema);
  });
});
