import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { PRESET_NAMES } from '../providers/shared/presets/catalog.js';
import { DEFAULTS } from '../src/config/defaults.js';

// `npm run docs:config`: writes docs/configuration.md, the configuration reference, from the zod schema
// in src/config/schema.ts: every field's path, type and default, and its TSDoc as the description.
// The schema's source is read (not the runtime schema), because the descriptions are its TSDoc.
// test/docs/configuration.test.ts fails when the committed page differs from what this produces.

const ROOT = resolve(import.meta.dirname, '..');
export const SCHEMA = join(ROOT, 'src/config/schema.ts');
export const OUTPUT = join(ROOT, 'docs/configuration.md');

/** One row of the reference. */
interface Row {
  path: string;
  type: string;
  default: string;
  doc: string;
}

/** What a schema expression describes. */
type Shape =
  | { kind: 'object'; fields: Field[] }
  | { kind: 'union'; members: Shape[]; discriminator?: string }
  | { kind: 'array'; of: Shape }
  | { kind: 'record'; of: Shape }
  | { kind: 'leaf'; type: string };

interface Field {
  name: string;
  doc: string;
  /** The TSDoc of the named schema a record or array holds (`providerSchema`). */
  childDoc?: string;
  optional: boolean;
  default?: string;
  shape: Shape;
}

/** Placeholders for the keys of records, by the field that holds the record. */
const KEY_NAMES: Record<string, string> = { providers: '<name>', chains: '<name>', tenants: '<tenant>', models: '<model>', prices: '<model>' };
/** Identifiers the schema passes to z.enum, evaluated. */
const CONSTANTS: Record<string, readonly string[]> = { PRESET_NAMES };
/** Leaf schemas of the schema's own, by name. */
const LEAF_NAMES: Record<string, string> = { httpURL: 'http(s) URL', targetString: "`'provider:model'`" };
/** Number schemas of the schema's own, by name. */
const NUMBER_NAMES: Record<string, string> = {
  positiveInt: 'integer > 0',
  nonNegativeInt: 'integer ≥ 0',
  positiveMs: 'ms, integer > 0',
  nonNegativeMs: 'ms, integer ≥ 0',
};

export function renderConfigurationReference(source = readFileSync(SCHEMA, 'utf8')): string {
  const file = ts.createSourceFile(SCHEMA, source, ts.ScriptTarget.ES2022, true);
  const consts = new Map<string, ts.VariableDeclaration>();
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) consts.set(d.name.text, d);
  }
  const text = (node: ts.Node) => node.getText(file);

  /** The TSDoc of a node: its text without the tags, and its `@default`. */
  function tsdoc(node: ts.Node): { doc: string; default?: string } {
    const jsdoc = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc).at(-1);
    if (!jsdoc) return { doc: '' };
    const comment = typeof jsdoc.comment === 'string' ? jsdoc.comment : (jsdoc.comment ?? []).map((c) => c.text).join('');
    const tag = jsdoc.tags?.find((t) => t.tagName.text === 'default');
    const value = tag ? (typeof tag.comment === 'string' ? tag.comment : (tag.comment ?? []).map((c) => c.text).join('')) : undefined;
    return { doc: comment.replace(/\s+/g, ' ').trim(), ...(value !== undefined ? { default: value.replace(/\s+/g, ' ').trim() } : {}) };
  }

  /** A `.default(...)` argument as a value: `DEFAULTS.retry.maxAttempts`, or a literal. */
  function defaultValue(arg: ts.Expression): string | undefined {
    const path = text(arg).split('.');
    if (path[0] === 'DEFAULTS') {
      let value: unknown = DEFAULTS;
      for (const key of path.slice(1)) value = (value as Record<string, unknown>)[key];
      return typeof value === 'object' ? undefined : JSON.stringify(value);
    }
    if (ts.isStringLiteral(arg)) return `'${arg.text}'`;
    // A literal object or array of literals (`{ type: 'memory' }`, `{}`), as written; not one built from DEFAULTS.
    if ((ts.isObjectLiteralExpression(arg) || ts.isArrayLiteralExpression(arg)) && !/\.\.\.|DEFAULTS/.test(text(arg))) return text(arg);
    if (ts.isNumericLiteral(arg) || arg.kind === ts.SyntaxKind.TrueKeyword || arg.kind === ts.SyntaxKind.FalseKeyword) return text(arg);
    return undefined;
  }

  /** What an expression of the schema describes, and whether it is optional or has a default. */
  function describe(expr: ts.Expression): { shape: Shape; optional: boolean; default?: string } {
    let optional = false;
    let dflt: string | undefined;
    const numberFacts: string[] = [];
    let node: ts.Expression = expr;
    // Walk the method chain down to its root: `z.number().int().positive().optional()`.
    for (;;) {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const method = node.expression.name.text;
        const receiver = node.expression.expression;
        if (ts.isIdentifier(receiver) && receiver.text === 'z') break;
        if (method === 'optional') optional = true;
        else if (method === 'default') {
          optional = true;
          const arg = node.arguments[0];
          if (arg) dflt = defaultValue(arg);
        } else if (method === 'int') numberFacts.push('integer');
        else if (method === 'positive') numberFacts.push('> 0');
        else if (method === 'nonnegative') numberFacts.push('≥ 0');
        else if ((method === 'min' || method === 'max') && node.arguments[0] && ts.isNumericLiteral(node.arguments[0])) numberFacts.push(`${method === 'min' ? '≥' : '≤'} ${text(node.arguments[0])}`);
        node = receiver;
        continue;
      }
      break;
    }
    const shape = rootShape(node, numberFacts);
    return { shape, optional, ...(dflt !== undefined ? { default: dflt } : {}) };
  }

  function rootShape(node: ts.Expression, numberFacts: string[]): Shape {
    if (ts.isIdentifier(node)) {
      if (NUMBER_NAMES[node.text]) return { kind: 'leaf', type: NUMBER_NAMES[node.text]! };
      if (LEAF_NAMES[node.text]) return { kind: 'leaf', type: LEAF_NAMES[node.text]! };
      const decl = consts.get(node.text);
      if (!decl) throw new Error(`schema.ts: cannot resolve ${node.text}`);
      return describe(decl.initializer!).shape;
    }
    if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) throw new Error(`schema.ts: cannot read ${text(node)}`);
    const zod = node.expression.name.text;
    const [first, second] = node.arguments;
    switch (zod) {
      case 'object': {
        // z.object({ ... }), or z.object(budgetFields): a const holding the literal.
        const literal = ts.isIdentifier(first!) ? consts.get(first.text)?.initializer : first;
        if (!literal || !ts.isObjectLiteralExpression(literal)) throw new Error(`schema.ts: cannot read the fields of ${text(first!)}`);
        return { kind: 'object', fields: fieldsOf(literal) };
      }
      case 'discriminatedUnion':
        return { kind: 'union', discriminator: (first as ts.StringLiteral).text, members: (second as ts.ArrayLiteralExpression).elements.map((e) => describe(e).shape) };
      case 'union':
        return { kind: 'union', members: (first as ts.ArrayLiteralExpression).elements.map((e) => describe(e).shape) };
      case 'array':
        return { kind: 'array', of: describe(first!).shape };
      case 'record':
        return { kind: 'record', of: describe(second!).shape };
      case 'enum': {
        const values = ts.isIdentifier(first!) ? CONSTANTS[first.text] : (first as ts.ArrayLiteralExpression).elements.map((e) => (e as ts.StringLiteral).text);
        if (!values) throw new Error(`schema.ts: unknown enum constant ${text(first!)}`);
        return { kind: 'leaf', type: values.map((v) => `\`'${v}'\``).join(' \\| ') };
      }
      case 'literal':
        return { kind: 'leaf', type: `\`${text(first!)}\`` };
      case 'string':
        return { kind: 'leaf', type: 'string' };
      case 'boolean':
        return { kind: 'leaf', type: 'boolean' };
      case 'number': {
        const facts = [...numberFacts].reverse();
        const min = facts.find((f) => f.startsWith('≥ '));
        const max = facts.find((f) => f.startsWith('≤ '));
        const rest = facts.filter((f) => f !== 'integer' && f !== min && f !== max);
        const range = min && max ? [`${min.slice(2)} to ${max.slice(2)}`] : [min, max].filter((f): f is string => Boolean(f));
        return { kind: 'leaf', type: [facts.includes('integer') ? 'integer' : 'number', ...rest, ...range].join(' ') };
      }
      case 'unknown':
        return { kind: 'leaf', type: 'any' };
      case 'custom':
        return { kind: 'leaf', type: 'function' };
      default:
        throw new Error(`schema.ts: z.${zod} is not described by scripts/docs-config.ts`);
    }
  }

  function fieldsOf(literal: ts.ObjectLiteralExpression): Field[] {
    const fields: Field[] = [];
    for (const p of literal.properties) {
      if (ts.isSpreadAssignment(p)) {
        const decl = consts.get(text(p.expression));
        if (!decl || !ts.isObjectLiteralExpression(decl.initializer!)) throw new Error(`schema.ts: cannot spread ${text(p.expression)}`);
        // A spread field the object redefines takes the later definition, as in JavaScript.
        for (const f of fieldsOf(decl.initializer)) {
          const at = fields.findIndex((x) => x.name === f.name);
          if (at >= 0) fields.splice(at, 1);
          fields.push(f);
        }
        continue;
      }
      if (!ts.isPropertyAssignment(p)) continue;
      const name = ts.isIdentifier(p.name) || ts.isStringLiteral(p.name) ? p.name.text : text(p.name);
      const { doc, default: docDefault } = tsdoc(p);
      const d = describe(p.initializer);
      // The field's own TSDoc, else the TSDoc of the named schema it takes (retrySchema, limitsSchema, ...).
      const named = ts.isIdentifier(rootOf(p.initializer)) ? consts.get(text(rootOf(p.initializer))) : undefined;
      const inherited = !doc && named && /Schema$/.test(text(named.name)) ? tsdoc(named.parent.parent).doc : '';
      const at = fields.findIndex((x) => x.name === name);
      if (at >= 0) fields.splice(at, 1);
      const childDoc = namedChildDoc(p.initializer);
      fields.push({ name, doc: doc || inherited, optional: d.optional, ...(docDefault ?? d.default ? { default: docDefault ?? d.default } : {}), ...(childDoc ? { childDoc } : {}), shape: d.shape });
    }
    return fields;
  }

  /** `z.record(k, providerSchema)`, `z.array(gatewayKeySchema)`: the TSDoc of the named schema held. */
  function namedChildDoc(expr: ts.Expression): string | undefined {
    const root = rootOf(expr);
    if (!ts.isCallExpression(root) || !ts.isPropertyAccessExpression(root.expression)) return undefined;
    const held = root.expression.name.text === 'record' ? root.arguments[1] : root.expression.name.text === 'array' ? root.arguments[0] : undefined;
    if (!held) return undefined;
    const inner = rootOf(held);
    const decl = ts.isIdentifier(inner) ? consts.get(inner.text) : undefined;
    return decl && /Schema$/.test(inner.getText(file)) ? tsdoc(decl.parent.parent).doc || undefined : undefined;
  }

  function rootOf(expr: ts.Expression): ts.Expression {
    let node = expr;
    while (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && !(ts.isIdentifier(node.expression.expression) && node.expression.expression.text === 'z')) node = node.expression.expression;
    return node;
  }

  /** The rows of one field and everything under it. */
  function rows(path: string, field: Field, out: Row[]): void {
    const { shape } = field;
    const row = (type: string): void => void out.push({ path, type, default: field.default ?? '', doc: field.doc + (field.optional || field.default ? '' : field.doc ? ' Required.' : 'Required.') });
    if (shape.kind === 'leaf') return row(shape.type);
    if (shape.kind === 'object') {
      if (field.doc) row('object');
      for (const f of shape.fields) rows(`${path}.${f.name}`, f, out);
      return;
    }
    if (shape.kind === 'record') {
      const key = KEY_NAMES[field.name] ?? '<key>';
      if (shape.of.kind === 'leaf') return row(`record of ${shape.of.type}`);
      row('record');
      rows(`${path}.${key}`, { name: key, doc: field.childDoc ?? '', optional: true, shape: shape.of }, out);
      return;
    }
    if (shape.kind === 'array') {
      if (shape.of.kind === 'leaf') return row(`array of ${shape.of.type}`);
      if (shape.of.kind === 'array' && shape.of.of.kind === 'leaf') return row(`array of arrays of ${shape.of.of.type}`);
      row('array');
      rows(`${path}[]`, { name: `${field.name}[]`, doc: '', optional: true, shape: shape.of }, out);
      return;
    }
    // A union: its leaves as the type, each object member's fields below it. With a discriminator,
    // a field only some members have says which; one whose TSDoc differs by member gives each its say.
    const leaves = shape.members.filter((m): m is Extract<Shape, { kind: 'leaf' }> => m.kind === 'leaf').map((m) => m.type);
    const objects = shape.members.filter((m): m is Extract<Shape, { kind: 'object' }> => m.kind === 'object');
    const arrays = shape.members.filter((m): m is Extract<Shape, { kind: 'array' }> => m.kind === 'array');
    row([...leaves, ...(arrays.length ? ['array'] : []), ...(objects.length ? ['object'] : [])].join(' \\| '));
    // An array member (a chain as its steps, or `{ steps, hedge }`): its items' rows below it.
    for (const a of arrays) rows(`${path}[]`, { name: `${field.name}[]`, doc: '', optional: true, shape: a.of }, out);
    const tagOf = (m: Extract<Shape, { kind: 'object' }>) => {
      const tag = shape.discriminator ? m.fields.find((f) => f.name === shape.discriminator) : undefined;
      return tag && tag.shape.kind === 'leaf' ? tag.shape.type : undefined;
    };
    if (shape.discriminator) {
      const tags = objects.map(tagOf).filter((t): t is string => Boolean(t));
      out.push({ path: `${path}.${shape.discriminator}`, type: tags.join(' \\| '), default: '', doc: 'Which kind this is: the fields marked with a type below apply to that type only. Required.' });
    }
    const names = [...new Set(objects.flatMap((m) => m.fields.map((f) => f.name)))].filter((n) => n !== shape.discriminator);
    for (const name of names) {
      const having = objects.filter((m) => m.fields.some((f) => f.name === name));
      const variants = having.map((m) => ({ tag: tagOf(m), field: m.fields.find((f) => f.name === name)! }));
      const first = variants[0]!.field;
      const docs = new Map<string, string[]>();
      for (const v of variants) docs.set(v.field.doc, [...(docs.get(v.field.doc) ?? []), v.tag ?? '']);
      let doc = first.doc;
      if (docs.size > 1) {
        // The TSDoc most members share, then each other member's own.
        const [common] = [...docs.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
        doc = [common, ...[...docs.entries()].filter(([d]) => d !== common && d).map(([d, tags]) => (tags.some(Boolean) ? `For type ${tags.join(', ')}: ${d}` : `Or: ${d}`))].filter(Boolean).join(' ');
      } else if (shape.discriminator && having.length < objects.length) {
        doc = `Type ${variants.map((v) => v.tag).join(', ')} only. ${first.doc}`.trim();
      }
      rows(`${path}.${name}`, { ...first, doc, optional: variants.every((v) => v.field.optional) }, out);
    }
  }

  const root = describe(consts.get('configSchema')!.initializer!).shape;
  if (root.kind !== 'object') throw new Error('schema.ts: configSchema is not an object');
  const sections = root.fields.map((f) => {
    const out: Row[] = [];
    rows(f.name, f, out);
    // The section's own row restates its intro unless it says more (a type to choose, a default).
    const rest = out[0]?.path === f.name && ['object', 'record'].includes(out[0].type) && !out[0].default ? out.slice(1) : out;
    const required = !f.optional && !f.default;
    return { name: f.name, doc: f.doc + (required ? ' Required.' : ''), rows: rest };
  });
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\\\\\|/g, '\\|');
  const lines = [
    '# Configuration reference',
    '',
    '<!-- Generated by `npm run docs:config` from src/config/schema.ts: edit the schema\'s TSDoc, not this page. test/docs/configuration.test.ts checks it is current. -->',
    '',
    '`router.config.ts` default-exports `defineConfig({...})` (from `switchyard-llm`); `createRouter` takes the',
    'same object. Only `providers` and `chains` are required. Every default lives in `src/config/defaults.ts`',
    '(the schema\'s `@default` docs are checked against it). A duration the router sets a timer for is refused',
    'past 2^31 - 1 ms. An invalid config throws a `RouterError` of kind `config` naming every failing path;',
    'invalid call input throws `invalid_request`, naming the field, before anything is sent. The options a',
    'call takes: [tools-and-structured-output.md](tools-and-structured-output.md#everything-else-a-request-takes).',
    '',
    'The sections: ' + sections.map((s) => `[\`${s.name}\`](#${s.name})`).join(', ') + '.',
    '',
  ];
  for (const s of sections) {
    lines.push(`## ${s.name}`, '');
    if (s.doc) lines.push(s.doc, '');
    lines.push('| field | type | default | meaning |', '|---|---|---|---|');
    for (const r of s.rows) lines.push(`| \`${r.path}\` | ${cell(r.type)} | ${cell(defaultCell(r.default))} | ${cell(r.doc)} |`);
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A default as the table shows it: a value (`3`, `'auto'`, `retry.maxInlineWaitMs`) in code, prose as it is. */
function defaultCell(value: string): string {
  if (!value) return '';
  return /^(-?[\d.]+|'[^']*'|"[^"]*"|true|false|[a-z]\w*(\.\w+)+|\{.*\}|\[.*\])$/.test(value) ? `\`${value}\`` : value;
}

function invokedDirectly(): boolean {
  try {
    return Boolean(process.argv[1]) && realpathSync(process.argv[1]!) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  writeFileSync(OUTPUT, renderConfigurationReference());
  console.log(`wrote ${OUTPUT.slice(ROOT.length + 1)}`);
}
