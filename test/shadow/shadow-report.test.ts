import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { openShadowLog } from '../../src/gateway/shadow-log.js';
import { createRouter } from '../../src/router.js';
import { fakeRequests } from '../../src/testing/index.js';
import { captureIO } from '../cli/io.js';
import { captureLogger } from '../support/capture-logger.js';
import { VirtualClock } from '../support/virtual-clock.js';

// gateway.shadowLog written by a real router's shadows, read back by `switchyard eval --shadow-report`.

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

const turns = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
};

describe('switchyard eval --shadow-report', () => {
  it('prints per candidate the count, agreement, latency and cost against the real answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-shadow-'));
    dirs.push(dir);
    const file = join(dir, 'shadow.jsonl');
    const clock = new VirtualClock({ autoAdvance: false });
    const router = createRouter({
      providers: {
        prod: { type: 'fake', latencyMs: 100, respond: () => ({ text: 'Paris is the capital' }) },
        same: { type: 'fake', latencyMs: 50, respond: () => ({ text: 'paris  is the CAPITAL' }) },
        other: { type: 'fake', latencyMs: 300, respond: (_request: unknown, n: number) => (n === 1 ? { fail: 'server' } : { text: 'Lyon' }) },
      },
      chains: { default: { steps: ['prod:m'], shadow: { targets: ['same:m', 'other:m'], percent: 100 } } } as unknown as SwitchyardConfig['chains'],
      retry: { maxAttempts: 1 },
    }, { logger: captureLogger().logger, clock });
    const log = openShadowLog(router, file, () => clock.now());
    for (let i = 0; i < 3; i++) {
      const pending = router.chat({ messages: [{ role: 'user', content: 'Capital of France?' }] });
      await turns();
      await clock.advance(100);
      await pending;
      await turns();
      await clock.advance(300);
      await turns();
    }
    expect([fakeRequests(router, 'prod').length, fakeRequests(router, 'same').length, fakeRequests(router, 'other').length]).toEqual([3, 3, 3]);
    await router.close();
    await log.close();
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatchObject({ event: 'shadow', time: '2026-11-29T12:00:00.150Z', chain: 'default' });

    const { io, out } = captureIO({ cwd: dir });
    expect(await main(['eval', '--shadow-report', 'shadow.jsonl'], io)).toBe(0);
    const rows = out().trim().split('\n');
    expect(rows[0]).toMatch(/^chain\s+candidate\s+n\s+errors\s+dropped\s+equal\s+similarity\s+pass\s+judge\s+p50 ms \(real\)\s+latency vs real/);
    const cells = (row: string) => row.split(/\s{2,}/);
    expect(cells(rows[1]!)).toEqual(['default', 'same:m', '3', '0', '0', '100%', '1.00', '-', '-', '50 (100)', '0.50x', '0.0000 (0.0000)', '-']);
    // The first shadow to `other` failed (its script), the next two answered "Lyon": no shared token.
    expect(cells(rows[2]!)).toEqual(['default', 'other:m', '2', '1', '0', '0%', '0.00', '-', '-', '300 (100)', '3.00x', '0.0000 (0.0000)', '-']);
  });

  it('says so when the file holds no shadow event, and is a usage error when it cannot be read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-shadow-'));
    dirs.push(dir);
    const { io, out } = captureIO({ cwd: dir });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'empty.jsonl'), '{"event":"call"}\nnot json\n');
    expect(await main(['eval', '--shadow-report', 'empty.jsonl'], io)).toBe(0);
    expect(out()).toBe('no shadow events in the file\n');
    const bad = captureIO({ cwd: dir });
    expect(await main(['eval', '--shadow-report', 'missing.jsonl'], bad.io)).toBe(2);
    expect(bad.err()).toContain('cannot read missing.jsonl');
  });
});
