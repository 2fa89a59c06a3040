import type { ProviderCallOptions } from '../types.js';
import { sendHookOptions, type HookInit } from './send-hook.js';

/**
 * Per-request options for either SDK. Both reject `timeout: undefined` and fractional timeouts
 * ("timeout must be an integer"), so the key is only there when set, and whole. `onSend` rides in
 * `fetchOptions` to the client's `sendingFetch`.
 */
export function sdkRequestOptions(options: ProviderCallOptions): { signal?: AbortSignal; timeout?: number; fetchOptions?: HookInit } {
  const out: { signal?: AbortSignal; timeout?: number; fetchOptions?: HookInit } = { signal: options.signal };
  if (options.timeoutMs !== undefined) out.timeout = Math.max(1, Math.ceil(options.timeoutMs));
  if (options.onSend) out.fetchOptions = sendHookOptions(options.onSend);
  return out;
}
