import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// docs/events.md's snippet runs as written (with the package name pointed at this checkout).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('docs/events.md', () => {
  it('runs its breaker snippet and gets what its comment says', async () => {
    const text = readFileSync(join(ROOT, 'docs/events.md'), 'utf8');
    const snippet = /```ts\n([\s\S]*?)```/.exec(text)![1]!;
    const dir = mkdtempSync(join(ROOT, 'test/policy/.snippet-'));
    try {
      const file = join(dir, 'snippet.ts');
      writeFileSync(file, snippet.replace("from 'switchyard-llm'", `from ${JSON.stringify(join(ROOT, 'src/index.ts'))}`));
      const { opened } = await import(file) as { opened: unknown[] };
      expect(opened).toEqual([{ batch: 3 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
