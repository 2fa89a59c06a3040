import { describe, expect, it } from 'vitest';
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
