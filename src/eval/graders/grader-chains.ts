import { RouterError } from '../../errors.js';
import type { EvalCase } from '../case-types.js';

/** Where the graders' chains come from besides a case's own `chain`. */
export interface GraderChainSources {
  /** `--judge-chain` / `runEval({ judgeChain })`. */
  judgeOption?: string;
  /** `--embed-chain` / `runEval({ embedChain })`. */
  embedOption?: string;
  /** The config's `eval` section. */
  config?: { judgeChain?: string; embedChain?: string };
  /** The chains the router declares. */
  chains: Record<string, unknown>;
}

/** The chains a run's graders use by default; undefined when no case needs one or none was found. */
export interface GraderChains {
  judge?: string;
  embed?: string;
}

/**
 * Picks the judge and embeddings chains, and checks that every case that needs one has one the router
 * declares. Precedence: the case's own `chain` > the option (`--judge-chain`, `runEval({ judgeChain })`)
 * > the config's `eval.judgeChain` > a chain named `judge`. For `similar`: `chain` > `--embed-chain` >
 * `eval.embedChain` > `embed` > `embeddings`. Throws RouterError kind `config` naming the case.
 */
export function graderChains(cases: readonly EvalCase[], src: GraderChainSources): GraderChains {
  const has = (name: string) => Object.hasOwn(src.chains, name);
  const judge = src.judgeOption ?? src.config?.judgeChain ?? (has('judge') ? 'judge' : undefined);
  const embed = src.embedOption ?? src.config?.embedChain ?? (has('embed') ? 'embed' : has('embeddings') ? 'embeddings' : undefined);
  const problems: string[] = [];
  for (const c of cases) {
    if (c.expect.judge) {
      const chain = c.expect.judge.chain ?? judge;
      if (chain === undefined) problems.push(`case "${c.id}": expect.judge needs a judge chain: set expect.judge.chain, --judge-chain, eval.judgeChain in the config, or declare a chain named "judge"`);
      else if (!has(chain)) problems.push(`case "${c.id}": expect.judge: unknown chain "${chain}"`);
    }
    if (c.expect.similar) {
      const chain = c.expect.similar.chain ?? embed;
      if (chain === undefined) problems.push(`case "${c.id}": expect.similar needs an embeddings chain: set expect.similar.chain, --embed-chain, eval.embedChain in the config, or declare a chain named "embed"`);
      else if (!has(chain)) problems.push(`case "${c.id}": expect.similar: unknown chain "${chain}"`);
    }
  }
  if (problems.length > 0) throw new RouterError('config', problems.join('; '));
  return Object.assign({}, judge !== undefined && has(judge) ? { judge } : {}, embed !== undefined && has(embed) ? { embed } : {});
}
