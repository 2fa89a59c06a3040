import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'providers/**/*.test.ts', 'src/**/*.test.ts'],
    setupFiles: ['test/support/setup.ts'],
    // Each run gets its own TMPDIR, and a switchyard-* folder left in it fails the run.
    globalSetup: ['test/support/temp-dirs.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
  },
});
