import { afterEach, expect } from 'vitest';
import { keyLeaks } from './capture-logger.js';

// Tests are hermetic: no provider credentials or endpoints leak in from the developer's shell.
for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL']) {
  delete process.env[name];
}

// No log line of any test, at any level, may carry an API key.
afterEach(() => {
  const leaked = keyLeaks.splice(0);
  expect(leaked, 'log lines containing an API key').toEqual([]);
});
