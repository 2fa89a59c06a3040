import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/defaults.js';
import { nextStep } from '../../src/decide/next-step.js';
import { ERROR_KINDS, RouterError, type ErrorKind } from '../../src/errors.js';
import { errorReply, STATUS_BY_KIND } from '../../src/gateway/error-reply.js';

// docs/gateway.md's "Errors and statuses" kind table, row by row, against what src/gateway/error-reply.ts
// answers: a change to either that the other does not follow fails here.

interface Row {
  kinds: ErrorKind[];
  status: string;
  codes: string[];
  shouldRetry: string;
}

const section = (() => {
  const doc = readFileSync(new URL('../../docs/gateway.md', import.meta.url), 'utf8');
  const start = doc.indexOf('\n## Errors and statuses\n');
  if (start < 0) throw new Error('docs/gateway.md has no "## Errors and statuses" section');
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
})();

const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** The table whose header starts `| kind |`, one row per line. */
const rows: Row[] = (() => {
  const lines = section.split('\n');
  const header = lines.findIndex((l) => l.startsWith('| kind |'));
  const out: Row[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [kinds, status, codes, shouldRetry] = line.split('|').slice(1, 5).map((c) => c.trim());
    out.push({ kinds: ticked(kinds!) as ErrorKind[], status: status!, codes: ticked(codes!), shouldRetry: shouldRetry! });
  }
  return out;
})();

const tabled = rows.flatMap((r) => r.kinds);
const policy = { ...DEFAULTS.retry, parkMs: DEFAULTS.quota.parkMs };
const reply = (kind: ErrorKind, facts: ConstructorParameters<typeof RouterError>[2] = {}) => errorReply(new RouterError(kind, 'what went wrong', facts));

describe('the gateway status table of docs/gateway.md', () => {
  it('names only real error kinds, each in one row', () => {
    expect(rows.length).toBeGreaterThan(5);
    for (const kind of tabled) expect(ERROR_KINDS).toContain(kind);
    expect(new Set(tabled).size).toBe(tabled.length);
  });

  it.each(rows.map((r) => [r.kinds.join(', '), r] as const))('row %s: the status, code and x-should-retry error-reply.ts gives', (_name, row) => {
    for (const kind of row.kinds) {
      expect(row.status.startsWith(String(STATUS_BY_KIND[kind].status)), `${kind} status`).toBe(true);
      const answer = reply(kind);
      expect(answer.status, `${kind} status`).toBe(STATUS_BY_KIND[kind].status);
      // A code the gateway sets itself is one the row names; otherwise the provider's (none here) passes.
      if (answer.body.error.code !== null) expect(row.codes, `${kind} code`).toContain(answer.body.error.code);
      if (row.shouldRetry === '`false`') {
        expect(answer.headers['x-should-retry'], kind).toBe('false');
        expect(reply(kind, { retryAfterMs: 1_000 }).headers['x-should-retry'], kind).toBe('false');
      } else if (row.shouldRetry.startsWith('not sent')) {
        expect(answer.headers['x-should-retry'], kind).toBeUndefined();
      } else {
        // `false` when the wait is unknown or over 60 s; otherwise not sent, and the wait is in the headers.
        expect(row.shouldRetry).toMatch(/^`false` when the chain's `retryAfterMs` is unknown or over 60 s/);
        expect(answer.headers['x-should-retry'], kind).toBe('false');
        expect(reply(kind, { retryAfterMs: 60_001 }).headers['x-should-retry'], kind).toBe('false');
        const soon = reply(kind, { retryAfterMs: 60_000 });
        expect(soon.headers['x-should-retry'], kind).toBeUndefined();
        expect([soon.headers['retry-after-ms'], soon.headers['retry-after']]).toEqual(['60000', '60']);
      }
    }
  });

  it('row exhausted: each status it names by cause is the one error-reply.ts answers for that cause', () => {
    const row = rows.find((r) => r.kinds.includes('exhausted'))!;
    const attempts = (...kinds: ErrorKind[]) => kinds.map((kind) => ({ provider: 'p', model: 'm', ok: false, kind, latencyMs: 1 }));
    expect(row.status).toMatch(/429 `rate_limit_error` when every failure was a rate limit, quota or full budget/);
    expect(row.status).toMatch(/504 when every attempt timed out/);
    expect(row.status).toMatch(/503 `upstream_error` otherwise/);
    expect(reply('exhausted', { attempts: attempts('rate_limited', 'quota_exhausted', 'local_limit') }).status).toBe(429);
    expect(reply('exhausted', { attempts: attempts('rate_limited', 'quota_exhausted') }).body.error.type).toBe('rate_limit_error');
    expect(reply('exhausted', { attempts: attempts('timeout', 'timeout') }).status).toBe(504);
    for (const kind of ['server', 'transport', 'invalid_output', 'circuit_open'] as const) {
      const answer = reply('exhausted', { attempts: attempts('rate_limited', kind) });
      expect([answer.status, answer.body.error.type], kind).toEqual([503, 'upstream_error']);
    }
  });

  it('leaves out only kinds a chain falls through, and says so: the client gets exhausted for them', () => {
    const untabled = ERROR_KINDS.filter((k) => !tabled.includes(k));
    expect(untabled.length).toBeGreaterThan(0);
    const sentence = section.split('\n\n').find((p) => p.includes('never reach a'))!;
    for (const kind of untabled) {
      expect(ticked(sentence), `${kind} named as never reaching a client`).toContain(kind);
      const last = { kind, attempt: policy.maxAttempts, maxAttempts: policy.maxAttempts, policy, random: () => 0 };
      expect(nextStep(last).action, kind).toBe('fall_through');
    }
  });
});
