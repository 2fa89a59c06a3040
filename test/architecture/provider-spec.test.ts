import { describe, expectTypeOf, it } from 'vitest';
import type { FakeStep as ConfigFakeStep, ProviderType as ConfigProviderType, ResolvedProvider } from '../../src/config/index.js';
import type { AdapterContext, FakeStep, ProviderSettings, ProviderType } from '../../providers/types.js';

// The provider spec declares what adapters read of the config instead of importing src/config;
// these hold the two in step (checked by tsc: `npm run typecheck` covers test/).
describe('provider spec', () => {
  it('declares exactly the fake steps the config accepts', () => {
    expectTypeOf<FakeStep>().toEqualTypeOf<ConfigFakeStep>();
  });

  it('declares exactly the provider types the config accepts', () => {
    expectTypeOf<ProviderType>().toEqualTypeOf<ConfigProviderType>();
  });

  it('takes every resolved provider of the config as an adapter\'s settings', () => {
    expectTypeOf<ResolvedProvider>().toExtend<ProviderSettings>();
    expectTypeOf<AdapterContext['provider']>().toEqualTypeOf<ProviderSettings>();
  });
});
