import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../src/config/defaults.js';
import { resolveConfig } from '../src/config/index.js';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const SCHEMA = read('src/config/schema.ts');
/** Option interfaces outside the schema whose `@default`s are the config's defaults too. */
const OPTION_FILES = ['src/store/redis-store.ts', 'src/store/fallback-store.ts'];

interface Documented {
  /** `declaration.field`, e.g. `limitsSchema.windowMs` or `RedisStoreOptions.keyPrefix`. */
  label: string;
  documented: string;
  /** The DEFAULTS path a zod `.default(DEFAULTS.a.b)` on the field's own line names. */
  zodPath?: string;
}

/** Every `@default X` in a file, with the field its TSDoc sits on and the declaration around it. */
function documentedDefaults(text: string): Documented[] {
  const found: Documented[] = [];
  const re = /@default ([^\n]*?)\s*(?:\*\/|\n\s*\*\/)\s*\n\s*(\w+)\??\s*:([^\n]*)/g;
  for (const m of text.matchAll(re)) {
    const before = text.slice(0, m.index);
    const declaration = [...before.matchAll(/^(?:export )?(?:const|interface) (\w+)/gm)].at(-1)?.[1] ?? '?';
    const zodPath = /\.default\(DEFAULTS\.([\w.]+)\)/.exec(m[3]!)?.[1];
    found.push({ label: `${declaration}.${m[2]}`, documented: m[1]!, zodPath });
  }
  return found;
}

/** Optional fields (no zod default: the code falls back when they are absent), and the DEFAULTS path of that fallback. */
const OPTIONAL_FIELDS: Record<string, string> = {
  'limitsSchema.windowMs': 'limits.windowMs',
  'limitsSchema.reserveOutputTokens': 'limits.reserveOutputTokens',
  'limitsSchema.tokenizer': 'limits.tokenizer',
  'providerBase.timeoutMs': 'provider.timeoutMs',
  'providerBase.transport': 'provider.transport',
  'providerBase.azure': 'provider.azure',
  'providerSchema.api': 'provider.api',
  'poolStep.pick': 'pool.pick',
  'poolStep.sticky': 'pool.sticky',
  'outlierSchema.consecutiveFailures': 'outlier.consecutiveFailures',
  'outlierSchema.successRateBelow': 'outlier.successRateBelow',
  'outlierSchema.latencyAboveMedianX': 'outlier.latencyAboveMedianX',
  'outlierSchema.ejectMs': 'outlier.ejectMs',
  'outlierSchema.maxEjectedPercent': 'outlier.maxEjectedPercent',
  'spendSchema.localShare': 'spend.localShare',
  'promptCacheSchema.auto': 'promptCache.auto',
  'configSchema.keyPrefix': 'store.keyPrefix',
  'RedisStoreOptions.keyPrefix': 'store.keyPrefix',
  'RedisStoreOptions.timeoutMs': 'store.timeoutMs',
  'FallbackStoreOptions.onUnavailable': 'store.onUnavailable',
  'FallbackStoreOptions.failoverMs': 'store.failoverMs',
  'FallbackStoreOptions.probeMs': 'store.probeMs',
};

/** `@default`s that describe a rule rather than state a value, and why no DEFAULTS entry holds them. */
const DESCRIBED: Record<string, string> = {
  'limitsSchema.maxQueueMs': "the config's own retry.maxInlineWaitMs, whatever it is set to",
  'limitsSchema.burstMs': 'computed from windowMs and rpm (src/policy/admission/pacing.ts)',
  'gatewayKeySchema.chains': 'no list: every chain of the config',
  'spendSchema.alertAt': 'an empty list (DEFAULTS.spend.alertAt): no alerts',
  'configSchema.cachedInputPerMTok': "the same entry's inputPerMTok (no cache discount known)",
  'configSchema.cacheWritePerMTok': "the same entry's inputPerMTok (no cache write surcharge known)",
  'configSchema.cacheWrite1hPerMTok': "the same entry's cacheWritePerMTok (no 1-hour write price known)",
  'gatewaySchema.keys': 'an empty list (DEFAULTS.gateway.keys), written as "none"',
  'bedrockFields.region': "resolved by the AWS SDK's region chain (AWS_REGION, the profile), not by Switchyard",
  'gatewaySchema.shadowLog': 'no file: shadow events are only emitted (router.on and metrics)',
  'configSchema.judgeChain': "a rule: the chain named 'judge' when the config declares one (src/eval/graders/grader-chains.ts)",
  'configSchema.embedChain': "a rule: the chain named 'embed', else 'embeddings', when declared (src/eval/graders/grader-chains.ts)",
  'bedrockFields.profile': "resolved by the AWS SDK's credential chain (AWS_PROFILE, then default), not by Switchyard",
};

const valueAt = (path: string): unknown => path.split('.').reduce<any>((o, k) => (o === undefined ? undefined : o[k]), DEFAULTS);
const unquoted = (s: string) => s.replace(/^'|'$/g, '');

const schemaDefaults = documentedDefaults(SCHEMA);
const optionDefaults = OPTION_FILES.flatMap((f) => documentedDefaults(read(f)));

describe('config defaults', () => {
  it('takes every zod default from the defaults module', () => {
    const literal = SCHEMA.match(/\.default\((?!DEFAULTS\.|\{ \.\.\.DEFAULTS\.|\(\) => [^)]*DEFAULTS\.|\{\}|\{ type: 'memory' \})[^)]*\)/g) ?? [];
    expect(literal).toEqual([]);
  });

  it('documents every zod default with the value the defaults module holds', () => {
    const zod = schemaDefaults.filter((d) => d.zodPath !== undefined);
    expect(zod.length).toBeGreaterThanOrEqual(18);
    for (const d of zod) expect(unquoted(d.documented), `${d.label} (${d.zodPath})`).toBe(String(valueAt(d.zodPath!)));
  });

  it('documents every optional field with the fallback the defaults module holds', () => {
    const byLabel = new Map([...schemaDefaults, ...optionDefaults].map((d) => [d.label, d]));
    for (const [label, path] of Object.entries(OPTIONAL_FIELDS)) {
      const d = byLabel.get(label);
      expect(d, `${label} has no @default any more: drop it from OPTIONAL_FIELDS`).toBeDefined();
      expect(valueAt(path), `DEFAULTS.${path}`).toBeDefined();
      expect(unquoted(d!.documented), `${label} (DEFAULTS.${path})`).toBe(String(valueAt(path)));
    }
  });

  it('leaves no @default of the schema or the store options unaccounted for', () => {
    const all = [...schemaDefaults, ...optionDefaults];
    const labels = all.map((d) => d.label);
    expect(new Set(labels).size, 'two @defaults share a label: qualify the parser').toBe(labels.length);
    const unaccounted = all.filter((d) => d.zodPath === undefined && !(d.label in OPTIONAL_FIELDS) && !(d.label in DESCRIBED));
    expect(unaccounted.map((d) => `${d.label}: @default ${d.documented}`)).toEqual([]);
    for (const label of Object.keys(DESCRIBED)) expect(labels, `${label} has no @default any more`).toContain(label);
    // Every @default in the schema was seen by the parser (none sits where it cannot read it).
    expect(schemaDefaults.length).toBe(SCHEMA.match(/@default /g)!.length);
  });

  it('fills a minimal config with exactly those defaults', () => {
    const c = resolveConfig({ providers: { p: { type: 'fake' } }, chains: { default: ['p:m'] } });
    expect(c.retry).toEqual(DEFAULTS.retry);
    expect(c.breaker).toEqual(DEFAULTS.breaker);
    expect(c.quota).toEqual(DEFAULTS.quota);
    expect(c.idempotency).toEqual(DEFAULTS.idempotency);
    expect(c.log).toEqual(DEFAULTS.log);
  });
});
