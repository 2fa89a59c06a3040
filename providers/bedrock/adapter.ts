import type { ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { malformedResponse } from '../shared/transport-error.js';
import type { AdapterContext, ProviderAdapter, ProviderCallOptions, ProviderRequest, ProviderResponse, ProviderStreamEvent } from '../types.js';
import { bedrockClient, type BedrockClientHandle } from './client.js';
import { converseInput, usesJsonTool } from './converse-request.js';
import { COHERE_MAX_TEXTS, embedBedrock, maxEmbeddingInputsFor } from './embed.js';
import { checkBedrockSdk, loadBedrockSdk, type BedrockSdk } from './load-sdk.js';
import { mapBedrockError } from './map-error.js';
import { awsSecretRedactor } from './redact.js';
import { announceSend } from './send-hook.js';
import { converseAnswer } from './response.js';
import { streamBedrock } from './stream.js';
import { converseUsage } from './usage.js';
import { bedrockThinkingTraits } from './model-family.js';

/** For the registry: a model id's traits (src/decide/reasoning-replay.ts reads its vendor). */
export { bedrockModelTraits } from './model-family.js';

export { converseInput } from './converse-request.js';

/** The SDK's per-request options: our signal, and the attempt's timeout when the router hands it over. */
function httpOptions(options: ProviderCallOptions): { abortSignal?: AbortSignal; requestTimeout?: number } {
  return Object.assign({}, (options.signal ? { abortSignal: options.signal } : {}), (options.timeoutMs !== undefined ? { requestTimeout: Math.max(1, Math.ceil(options.timeoutMs)) } : {}));
}

/**
 * The `bedrock` adapter: Amazon Bedrock's Converse and ConverseStream (and InvokeModel for Titan and
 * Cohere embeddings) through `@aws-sdk/client-bedrock-runtime`, loaded on the first call, with SigV4
 * signing, the SDK's event-stream decoding and its default credential chain; SDK retries off.
 * Its timeouts do not cover a body (the SDK's `requestTimeout` is a socket idle timer), so every
 * attempt runs under the router's own timer and AbortSignal.
 * @example const adapter = bedrockAdapter({ provider, clock, logger, redact });
 */
export function bedrockAdapter(ctx: AdapterContext): ProviderAdapter {
  const { provider, clock } = ctx;
  if (provider.type !== 'bedrock') throw new Error(`bedrockAdapter: provider ${provider.name} is of type ${provider.type}`);
  checkBedrockSdk(provider.name);
  const redact = awsSecretRedactor();
  const settings = { name: provider.name, region: provider.region, profile: provider.profile, baseURL: provider.baseURL };
  let sdk: BedrockSdk | undefined;
  let handle: BedrockClientHandle | undefined;
  const open = () => {
    sdk ??= loadBedrockSdk(provider.name);
    handle ??= bedrockClient(sdk, settings, ctx.logger);
    return { sdk, client: handle.client };
  };
  const mapper = (model: string) => (err: unknown) => mapBedrockError(err, { provider: provider.name, model, nowMs: clock.now(), redact });

  return {
    name: provider.name,
    type: provider.type,
    traits: { tokenCounting: 'heuristic', maxEmbeddingInputs: COHERE_MAX_TEXTS, maxEmbeddingInputsFor, timeoutCoversBody: false },
    thinkingTraits: bedrockThinkingTraits,
    async chat(request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
      const where = { provider: provider.name, model: request.model };
      const map = mapper(request.model);
      let data: ConverseCommandOutput;
      try {
        const { sdk: s, client } = open();
        data = await client.send(announceSend(new s.client.ConverseCommand(converseInput(request, provider.name)), options), httpOptions(options));
      } catch (err) {
        throw map(err);
      }
      if (!data?.output) throw malformedResponse(where, 'no output');
      const usage = converseUsage(data.usage);
      return Object.assign({}, converseAnswer(data, where, usesJsonTool(request)), (usage ? { usage } : {}), { model: request.model }, (data.$metadata?.requestId ? { requestId: data.$metadata.requestId } : {}));
    },
    stream(request: ProviderRequest, options: ProviderCallOptions): AsyncIterable<ProviderStreamEvent> {
      const where = { provider: provider.name, model: request.model };
      const map = mapper(request.model);
      return (async function* () {
        let opened;
        try {
          opened = open();
        } catch (err) {
          throw map(err);
        }
        yield* streamBedrock(Object.assign({}, opened, { map, where, httpOptions }), request, options);
      })();
    },
    async embed(request, options) {
      const where = { provider: provider.name, model: request.model };
      const map = mapper(request.model);
      let opened;
      try {
        opened = open();
      } catch (err) {
        throw map(err);
      }
      return embedBedrock(Object.assign({}, opened, { map, where, httpOptions }), request, options);
    },
    async close() {
      handle?.close();
      handle = undefined;
    },
  };
}
