import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, ROOT } from './snippets.js';

// Every relative link of the README, docs/, providers/ and bench/README.md goes to
// a file that exists, and every #anchor to a heading (or an <a id>) of that page, as GitHub names them.

/** Pages other branches add; linked to already, checked once they exist. */
const PENDING = ['docs/gateway-clients.md', 'docs/gateway-responses.md', 'docs/spend.md', 'docs/retries-and-waiting.md', 'docs/limits-on-input.md'];
const PAGES = [...documentationFiles(), 'bench/README.md'];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n ? `${slug}-${n}` : slug);
  }
  for (const [, id] of text.matchAll(/<a (?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

function linksOf(file: string): Array<{ target: string; anchor?: string; line: number }> {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const out: Array<{ target: string; anchor?: string; line: number }> = [];
  let fence = false;
  lines.forEach((line, i) => {
    if (line.startsWith('```')) fence = !fence;
    if (fence) return;
    for (const [, href] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(href!)) continue; // https:, mailto:
      const [path, anchor] = href!.split('#') as [string, string | undefined];
      const target = path ? relative(ROOT, resolve(dirname(join(ROOT, file)), path)) : file;
      out.push({ target, ...(anchor ? { anchor } : {}), line: i + 1 });
    }
  });
  return out;
}

describe('links in the README and docs/', () => {
  it.each(PAGES)('%s: every relative link resolves, every anchor names a heading', (page) => {
    const broken: string[] = [];
    for (const { target, anchor, line } of linksOf(page)) {
      if (PENDING.includes(target) && !existsSync(join(ROOT, target))) continue;
      if (!existsSync(join(ROOT, target))) {
        broken.push(`${page}:${line}: ${target} does not exist`);
        continue;
      }
      if (anchor && target.endsWith('.md') && statSync(join(ROOT, target)).isFile() && !anchorsOf(target).has(anchor)) broken.push(`${page}:${line}: ${target} has no #${anchor}`);
    }
    expect(broken).toEqual([]);
  });

  it('checks a real link set: the README links to every guide', () => {
    const targets = new Set(linksOf('README.md').map((l) => l.target));
    for (const doc of documentationFiles().filter((f) => f.startsWith('docs/'))) expect(targets, doc).toContain(doc);
    expect(PAGES.length).toBeGreaterThan(20);
  });
});

describe('docs/architecture.md', () => {
  const text = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

  it('names only files and folders that exist (its layout, and every path it cites)', () => {
    const cited = new Set([...text.matchAll(/\b((?:src|providers|test|bench)\/[\w./-]*[\w/])/g)].map((m) => m[1]!));
    // The layout's indented entries are files of src/policy/.
    for (const [, file] of text.matchAll(/^ {2}([\w-]+\.ts) /gm)) cited.add(`src/policy/${file}`);
    expect(cited.size).toBeGreaterThan(20);
    expect([...cited].filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });
});
