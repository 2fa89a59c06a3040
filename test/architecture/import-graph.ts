import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import edge: `from` imports `to` (both repository-relative paths, `/`-separated). */
export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** Every `.ts` file under `dir` (recursive), repository-relative. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string): void => {
    for (const name of readdirSync(abs)) {
      const path = join(abs, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(toPosix(relative(root, path)));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

/**
 * The relative module specifiers a file names, type-only ones included: import and export
 * declarations, `import type`, `import('x')` types and dynamic imports.
 */
export function specifiers(text: string, fileName: string): { spec: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const found: { spec: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ spec: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly ?? false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ spec: node.argument.literal.text, typeOnly: true });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ spec: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The import edges among our own files under `dirs` (package imports are left out). */
export function importEdges(root: string, dirs: string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of dirs.flatMap((dir) => sourceFiles(root, dir))) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const { spec, typeOnly } of specifiers(text, file)) {
      if (!spec.startsWith('.')) continue;
      const target = toPosix(relative(root, resolve(root, dirname(file), spec))).replace(/\.js$/, '.ts');
      edges.push({ from: file, to: target, typeOnly });
    }
  }
  return edges;
}

/** A set of files that import each other in a circle, with one shortest circle through its first file. */
export interface ImportCycle {
  files: string[];
  path: string[];
}

/** Each knot of mutually importing files once (a strongly connected component of the import graph). */
export function importCycles(edges: ImportEdge[]): ImportCycle[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  // Tarjan's strongly connected components: a component of more than one file (or a file that
  // imports itself) holds at least one cycle; one shortest cycle per component names it.
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string): void => {
    order.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!order.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, order.get(to)!));
      }
    }
    if (low.get(node) === order.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (next.get(node) ?? []).includes(node)) components.push(component.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!order.has(node)) connect(node);
  return components.map((files) => ({ files, path: shortestCycle(files[0]!, new Set(files), next) }));
}

function shortestCycle(start: string, within: Set<string>, next: Map<string, string[]>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of next.get(node) ?? []) {
      if (!within.has(to)) continue;
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(to) && to !== start) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}
