import type { ProviderCallOptions } from '../types.js';
import type { SdkFetch } from './http-fetch.js';

/**
 * Where a request's `onSend` rides from the adapter to the fetch under its SDK: a key no SDK and no
 * transport reads, in the per-request `fetchOptions` that the openai and anthropic SDKs merge into
 * the `RequestInit` they hand their `fetch`, once the body is built and serialised.
 */
const ON_SEND = Symbol('switchyard.onSend');

type WithHook = RequestInit & { [ON_SEND]?: () => void };
/** `fetchOptions` as the SDKs type them: nothing that they set themselves. */
export type HookInit = Partial<Record<'headers' | 'method' | 'signal' | 'body', never>>;

/**
 * The per-request `fetchOptions` that carry `options.onSend` to `sendingFetch`; undefined (no key at
 * all) when nothing listens.
 */
export function sendHookOptions(options: ProviderCallOptions): { fetchOptions: HookInit } | undefined {
  if (!options.onSend) return undefined;
  return { fetchOptions: { [ON_SEND]: options.onSend } as HookInit };
}

/**
 * The SDK's `fetch`, calling the request's `onSend` (see `sendHookOptions`) right before it goes:
 * anything the SDK threw before this point (serialising the body, building the headers) left nothing
 * on the wire, and the router then holds the request, not the provider, to blame.
 */
export function sendingFetch(fetch: SdkFetch): SdkFetch {
  return (input, init) => {
    const onSend = (init as WithHook | undefined)?.[ON_SEND];
    if (!onSend) return fetch(input, init);
    const { [ON_SEND]: _hook, ...rest } = init as WithHook;
    onSend();
    return fetch(input, rest);
  };
}
