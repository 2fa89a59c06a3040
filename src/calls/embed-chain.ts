import { RouterError } from '../errors.js';
import type { TargetRuntime } from '../policy/state/target-runtime.js';

/**
 * Whether a chain may serve `embed`: every target must have an embeddings API (Anthropic has none),
 * and every target must give vectors of one space: the same model, or models the config declares
 * interchangeable (`embeddings.interchangeable`). Vectors of different models mixed in one vector
 * store corrupt it silently, so a chain that breaks either rule is refused before any request.
 * Returns the refusal, or undefined when the chain is fine.
 */
export function embedChainProblem(chain: string, targets: readonly TargetRuntime[], interchangeable: readonly (readonly string[])[]): RouterError | undefined {
  const noApi = targets.filter((t) => !t.capabilities.embeddings);
  if (noApi.length > 0) {
    const names = noApi.map((t) => `${t.target.key} (${t.provider.type === 'anthropic' ? 'Anthropic has no embeddings API' : 'declared without embeddings'})`);
    return new RouterError('unsupported', `chain "${chain}" cannot serve embed: ${names.join(', ')}`);
  }
  const group = (t: TargetRuntime) => interchangeable.findIndex((g) => g.includes(t.target.key) || g.includes(t.target.model));
  const first = targets[0]!;
  for (const t of targets.slice(1)) {
    if (t.target.model === first.target.model) continue;
    const g = group(first);
    if (g >= 0 && g === group(t)) continue;
    return new RouterError('config', `chain "${chain}" mixes embedding models ${first.target.key} and ${t.target.key}: vectors of different models cannot be compared. Use one model, or declare them interchangeable in embeddings.interchangeable.`);
  }
  return undefined;
}
