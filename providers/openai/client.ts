import OpenAI, { AzureOpenAI } from 'openai';
import { RouterError } from '../../src/errors.js';
import { providerQuery, splitBaseURL } from '../shared/base-url.js';
import type { SdkFetch } from '../shared/http-fetch.js';
import { SDK_BACKSTOP_TIMEOUT_MS } from '../shared/sdk-backstop.js';
import { sdkLogger } from '../shared/sdk-logger.js';
import { PROVIDER_SETTING_DEFAULTS, type Logger, type ProviderSettings } from '../types.js';

/** Azure's API version query parameter, which its SDK client takes as an option of its own. */
const API_VERSION = 'api-version';

/** True when the provider asks for Azure OpenAI (`azure: true`), read defensively off the config. */
export function isAzure(provider: ProviderSettings): boolean {
  return (provider.azure ?? PROVIDER_SETTING_DEFAULTS.azure) === true;
}

/**
 * The SDK client for an `openai` or `openai-compatible` provider, retries off. A query string in
 * `baseURL` and the provider's `query` go to `defaultQuery` (appended to every request), instead of
 * being glued into the path. With `azure: true` it is the SDK's `AzureOpenAI` client: the
 * `api-key` header, `/deployments/<model>` paths (the chain's model is the deployment name), and
 * `api-version` from `query` or the base URL.
 */
export function openAIClient(provider: ProviderSettings, logger: Logger, fetch?: SdkFetch): OpenAI {
  const { baseURL, query } = splitBaseURL(provider.baseURL ?? 'https://api.openai.com/v1', providerQuery(provider));
  const common = {
    maxRetries: 0,
    // Only a backstop: the router times every attempt itself, or passes the attempt's own timeout.
    timeout: SDK_BACKSTOP_TIMEOUT_MS,
    ...(fetch ? { fetch } : {}),
    defaultHeaders: provider.headers,
    logger: sdkLogger(logger, provider.name),
    logLevel: 'warn' as const,
  };
  if (isAzure(provider)) {
    const { [API_VERSION]: apiVersion, ...rest } = query;
    if (!apiVersion) throw new RouterError('config', `providers.${provider.name}: Azure OpenAI needs query['api-version'] (or ?api-version= in baseURL)`);
    if (!provider.baseURL) throw new RouterError('config', `providers.${provider.name}: Azure OpenAI needs baseURL (https://<resource>.openai.azure.com/openai)`);
    return new AzureOpenAI(Object.assign({}, common, { apiKey: provider.resolvedApiKey, baseURL, apiVersion, defaultQuery: rest }));
  }
  return new OpenAI(Object.assign({}, common, { // Local servers (Ollama, vLLM) accept any key; the SDK insists on one, so give it a placeholder
    // rather than let it read OPENAI_API_KEY from the environment behind the config's back.
    apiKey: provider.resolvedApiKey ?? 'not-needed', baseURL }, (Object.keys(query).length > 0 ? { defaultQuery: query } : {})));
}
