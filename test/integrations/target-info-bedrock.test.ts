import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { providerSystem, serverOf } from '../../src/integrations/shared/target-info.js';

describe('a bedrock provider in telemetry', () => {
  const config = resolveConfig({
    providers: { aws: { type: 'bedrock', region: 'eu-west-1' }, proxy: { type: 'bedrock', baseURL: 'http://127.0.0.1:9000' }, chain: { type: 'bedrock' } },
    chains: { default: ['aws:m'] },
  });

  it('is gen_ai.provider.name aws.bedrock', () => {
    expect(providerSystem(config, 'aws')).toBe('aws.bedrock');
  });

  it("talks to its region's runtime endpoint, or its baseURL; with no region in the config, to no host it can name", () => {
    expect(serverOf(config, 'aws')).toEqual({ address: 'bedrock-runtime.eu-west-1.amazonaws.com', port: 443 });
    expect(serverOf(config, 'proxy')).toEqual({ address: '127.0.0.1', port: 9000 });
    expect(serverOf(config, 'chain')).toBeUndefined();
  });
});
