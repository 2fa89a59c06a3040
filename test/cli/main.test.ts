import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageVersion } from '../../src/cli/version.js';
import { main } from '../../src/cli/main.js';
import { captureIO } from './io.js';

describe('switchyard --help', () => {
  it('lists every command with a one-line summary', async () => {
    const { io, out } = captureIO();
    expect(await main(['--help'], io)).toBe(0);
    for (const name of ['chat', 'demo', 'simulate', 'eval']) expect(out()).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(out()).not.toMatch(/not built yet/);
  });

  it.each(['chat', 'demo', 'simulate'])('prints the usage of %s with --help and -h, exit 0', async (name) => {
    for (const flag of ['--help', '-h']) {
      const { io, out } = captureIO();
      expect(await main([name, flag], io)).toBe(0);
      expect(out()).toMatch(new RegExp(`^Usage: switchyard ${name}`));
      expect(out()).toMatch(/Options:/);
    }
  });

  it.each([
    [['simulate', '--bogus'], /^switchyard: Unknown option '--bogus'\n$/],
    [['demo', '--calls', 'many'], /^switchyard: --calls expects a whole number from 3 to 100000, got "many"\n$/],
    [['demo', 'extra'], /^switchyard: Unexpected argument 'extra'/],
    [['simulate', '--port', '-1'], /^switchyard: /],
    [['simulate', '--scenario', 'no-such-scenario.json'], /^switchyard: scenario file not found: .*no-such-scenario\.json\n$/],
  ])('refuses %j on one line with exit 2', async (argv, message) => {
    const { io, err, out } = captureIO();
    expect(await main(argv, io)).toBe(2);
    expect(err()).toMatch(message);
    expect(err().trim().split('\n')).toHaveLength(1);
    expect(out()).toBe('');
  });
});

describe('switchyard --version', () => {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

  it.each(['--version', '-v'])('%s prints the package.json version alone, exit 0', async (flag) => {
    const { io, out, err } = captureIO();
    expect(await main([flag], io)).toBe(0);
    expect(out()).toBe(`${version}\n`);
    expect(err()).toBe('');
  });

  it('reads the version of switchyard-llm from the built layout too (dist/src/cli/ is one folder deeper)', () => {
    const root = mkdtempSync(join(tmpdir(), 'switchyard-version-'));
    try {
      mkdirSync(join(root, 'dist/src/cli'), { recursive: true });
      writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'switchyard-llm', version: '9.8.7' }));
      // An app's own package.json two folders up from the file must not be taken for the package's.
      writeFileSync(join(root, 'dist/package.json'), JSON.stringify({ name: 'some-app', version: '1.0.0' }));
      expect(packageVersion(pathToFileURL(join(root, 'dist/src/cli/main.js')))).toBe('9.8.7');
      expect(() => packageVersion(pathToFileURL(join(root, 'dist/x/y/z/main.js')))).toThrow(/cannot find the package.json of switchyard-llm/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
