import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { providerSystem, serverOf } from '../../src/integrations/shared/target-info.js';

const config = resolveConfig({
  providers: {
    google: { type: 'gemini', apiKey: 'AIzaSyTESTtargetInfo0123456789abcdef' },
    local: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1' },
  },
  chains: { default: ['google:gemini-2.5-flash', 'local:llama3'] },
});

describe('target info for telemetry', () => {
  it('names a gemini provider gcp.gemini, as the GenAI conventions do, and others by their config name', () => {
    expect(providerSystem(config, 'google')).toBe('gcp.gemini');
    expect(providerSystem(config, 'local')).toBe('local');
  });

  it('knows the Gemini API\'s host when no baseURL is set', () => {
    expect(serverOf(config, 'google')).toEqual({ address: 'generativelanguage.googleapis.com', port: 443 });
  });
});
