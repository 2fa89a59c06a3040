import { createHash } from 'node:crypto';
import type { GatewayKeyConfig } from '../config/schema.js';
import { RouterError } from '../errors.js';
import { GATEWAY_KEY, gatewayKeyId } from '../spend/gateway-key.js';

/** Who a request is from, once its key checked out. */
export interface Caller {
  tenant: string;
  /** The chains this caller may use; undefined: every chain. */
  chains?: ReadonlySet<string>;
  /** The key's id (its `keyEnv`, or the start of its `keyHash`): its own spend budget and the spend report name it. */
  key?: string;
}

/** The caller of a gateway without keys (loopback only): the `default` tenant, every chain. */
export const ANONYMOUS: Caller = Object.freeze({ tenant: 'default' });

/**
 * The `keyHash` of a key: `sha256:` and its SHA-256 in hex. Store this in the config instead of
 * the key.
 * @example hashKey('sk-gw-0123456789') // 'sha256:…'
 */
export function hashKey(key: string): string {
  return `sha256:${createHash('sha256').update(key, 'utf8').digest('hex')}`;
}

/**
 * The gateway's keys, by hash only: a key read from the environment is hashed at start and not
 * kept, so neither a heap dump of the table nor a log of it holds a key. A presented key is hashed
 * and looked up; the lookup compares digests, so its timing says nothing about the key.
 */
export class KeyTable {
  private readonly byHash = new Map<string, Caller>();

  constructor(keys: readonly GatewayKeyConfig[], env: NodeJS.ProcessEnv, chains: readonly string[]) {
    const problems: string[] = [];
    keys.forEach((k, i) => {
      for (const chain of k.chains ?? []) {
        if (!chains.includes(chain)) problems.push(`gateway.keys[${i}].chains: unknown chain "${chain}" (the config has: ${chains.join(', ')})`);
      }
      let hash = k.keyHash;
      if (k.keyEnv !== undefined) {
        const key = env[k.keyEnv];
        if (!key) problems.push(`gateway.keys[${i}].keyEnv: environment variable ${k.keyEnv} is not set`);
        else hash = hashKey(key);
      }
      if (hash === undefined) return;
      if (this.byHash.has(hash)) problems.push(`gateway.keys[${i}]: the same key is listed twice`);
      this.byHash.set(hash, Object.freeze({ tenant: k.tenant, key: gatewayKeyId(k), ...(k.chains ? { chains: new Set(k.chains) } : {}) }));
    });
    if (problems.length > 0) throw new RouterError('config', `invalid gateway config:\n  - ${problems.join('\n  - ')}`);
  }

  /** True when any key is configured: every /v1 request must then carry one. */
  get enabled(): boolean {
    return this.byHash.size > 0;
  }

  /** The caller a bearer key belongs to, or undefined for an unknown key. */
  lookup(key: string): Caller | undefined {
    return this.byHash.get(hashKey(key));
  }
}

/** The key of an `Authorization: Bearer <key>` header; undefined when there is none. */
export function bearerKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}

/** The key of an `x-api-key` header (Anthropic's clients send theirs so); undefined when there is none. */
export function apiKeyHeader(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const key = value?.trim();
  return key ? key : undefined;
}

/** Marks a request to the router with the caller's key, so the key's own spend budget applies. */
export function withCallerKey<R extends object>(request: R, caller: Caller): R {
  if (caller.key !== undefined) Object.defineProperty(request, GATEWAY_KEY, { value: caller.key, enumerable: false });
  return request;
}
