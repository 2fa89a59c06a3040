import { afterEach, expect } from 'vitest';
import { keyLeaks } from './capture-logger.js';

// Tests are hermetic: no provider credentials or endpoints leak in from the developer's shell.
for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL']) {
  delete process.env[name];
}
// AWS likewise: no developer credentials, profiles or config files, and never the instance metadata
// service (a non-loopback address). Bedrock tests sign with these fakes; a test that needs none deletes them.
for (const name of Object.keys(process.env)) if (name.startsWith('AWS_')) delete process.env[name];
Object.assign(process.env, {
  AWS_ACCESS_KEY_ID: 'AKIDSWITCHYARDTEST01',
  AWS_SECRET_ACCESS_KEY: 'switchyard/test/secret/access/key/0123456789',
  AWS_REGION: 'us-east-1',
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_CONFIG_FILE: '/nonexistent/switchyard-test/aws-config',
  AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/switchyard-test/aws-credentials',
  // The SDK's notice that its 2027 releases need Node 22 is for people, not for test output.
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
});

// No log line of any test, at any level, may carry an API key.
afterEach(() => {
  const leaked = keyLeaks.splice(0);
  expect(leaked, 'log lines containing an API key').toEqual([]);
});
