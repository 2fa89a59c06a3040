import { RouterError } from '../errors.js';
import type { Message } from '../types.js';
import type { EvalCase, PromptVariant } from './case-types.js';

const VAR = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

/** The `{{var}}` names a template uses, in order of first use. */
export function templateVars(template: string): string[] {
  return [...new Set([...template.matchAll(VAR)].map((m) => m[1]!))];
}

/** Fills a template's `{{var}}` from `vars`; a value is inserted as written (no escaping, no recursion). */
export function renderTemplate(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(VAR, (_m, name: string) => vars[name]!);
}

/**
 * Checks a run's prompts against its cases before any request: ids unique and non-empty, every
 * `{{var}}` of every prompt given by every case. Throws RouterError `invalid_request` naming each
 * case and prompt at fault; without prompts, a case must carry its own user turn.
 */
export function checkPrompts(prompts: readonly PromptVariant[] | undefined, cases: readonly EvalCase[]): void {
  const problems: string[] = [];
  if (!prompts || prompts.length === 0) {
    for (const c of cases) if (!c.messages.some((m) => m.role === 'user')) problems.push(`case "${c.id}" has no prompt or messages, and the run has no prompts to fill its vars into`);
  } else {
    const seen = new Set<string>();
    for (const p of prompts) {
      if (typeof p.id !== 'string' || p.id === '' || typeof p.template !== 'string') problems.push('every prompt needs an id and a template (strings)');
      else if (seen.has(p.id)) problems.push(`duplicate prompt id "${p.id}"`);
      seen.add(p.id);
    }
    for (const p of prompts) {
      if (typeof p.template !== 'string') continue;
      for (const c of cases) {
        const unknown = templateVars(p.template).filter((v) => !Object.hasOwn(c.vars ?? {}, v));
        if (unknown.length > 0) problems.push(`case "${c.id}", prompt "${p.id}": unknown ${unknown.map((v) => `{{${v}}}`).join(', ')} (the case's vars: ${Object.keys(c.vars ?? {}).join(', ') || 'none'})`);
      }
    }
  }
  if (problems.length > 0) throw new RouterError('invalid_request', problems.join('; '));
}

/** The messages a case sends under a prompt: its own messages, then the template filled as the user turn. */
export function caseMessages(evalCase: EvalCase, prompt: PromptVariant | undefined): Message[] {
  if (!prompt) return evalCase.messages;
  return [...evalCase.messages, { role: 'user', content: renderTemplate(prompt.template, evalCase.vars ?? {}) }];
}

/** A run's column: the target, or `target · prompt` when the run compares prompts. */
export function columnOf(targetKey: string, prompt: PromptVariant | undefined): string {
  return prompt ? `${targetKey} · ${prompt.id}` : targetKey;
}
