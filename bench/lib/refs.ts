import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './profile.js';

/**
 * Where a router arm's code comes from: this checkout's working tree, or a git ref of this repository
 * materialised in a temporary folder outside it (so a run can measure "before" and "now" side by side).
 */
export interface RouterSource {
  /** A folder holding `src/router.ts` (and `providers/`, its `node_modules` symlinked to this checkout's). */
  root: string;
  /** What the report calls it: `working tree (84b0940, with uncommitted changes)`, `d000ca2`, ... */
  label: string;
  /** The ref as given (undefined for the working tree). */
  ref?: string;
  /** The full commit (for the working tree: HEAD, which may not be what runs). */
  commit: string;
  /** True for the working tree with uncommitted changes under src/ or providers/. */
  dirty?: boolean;
}

function git(args: string[]): string {
  return execFileSync('git', ['-C', REPO_ROOT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The working tree as a router source. */
export function workingTree(): RouterSource {
  let commit = 'unknown';
  let dirty = false;
  try {
    commit = git(['rev-parse', 'HEAD']);
    dirty = git(['status', '--porcelain', '--untracked-files=no', '--', 'src', 'providers']) !== '';
  } catch {
    // not a git checkout: the label says so
  }
  return { root: REPO_ROOT, label: `working tree (${commit.slice(0, 7)}${dirty ? ', with uncommitted changes' : ''})`, commit, dirty };
}

const made = new Set<string>();
let hooked = false;

/** Removes every folder `materialise` made; also runs on exit and on SIGINT / SIGTERM. */
export function cleanUpRefs(): void {
  for (const dir of made) {
    rmSync(dir, { recursive: true, force: true });
    made.delete(dir);
  }
}

function hookCleanUp(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', cleanUpRefs);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      cleanUpRefs();
      process.exit(130);
    });
  }
}

/**
 * Writes the tree of `ref` (a commit, tag, branch, `HEAD~2`, ...) into a fresh folder under the system
 * temp folder with `git archive` (nothing in this checkout changes: no worktree entry, no index), and
 * symlinks this checkout's `node_modules` into it, so its TypeScript imports the same SDK build and
 * runs through the tsx loader the bench already runs under. Removed by `cleanUpRefs` (and on exit).
 */
export function materialise(ref: string): RouterSource {
  let commit: string;
  try {
    commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new Error(`not a commit of this repository: ${ref}`);
  }
  hookCleanUp();
  const dir = mkdtempSync(join(tmpdir(), `switchyard-bench-ref-${commit.slice(0, 7)}-`));
  made.add(dir);
  execFileSync('sh', ['-c', `git -C "$1" archive --format=tar "$2" | tar -x -C "$3"`, 'sh', REPO_ROOT, commit, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (!existsSync(join(dir, 'src', 'router.ts'))) throw new Error(`${ref} (${commit.slice(0, 7)}) has no src/router.ts`);
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const short = commit.slice(0, 7);
  return { root: dir, label: ref.startsWith(short) || short.startsWith(ref) ? short : `${ref} (${short})`, ref, commit };
}
