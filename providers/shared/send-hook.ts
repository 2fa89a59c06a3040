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

/** The per-request `fetchOptions` that carry a request's `onSend` to `sendingFetch`. */
export function sendHookOptions(onSend: NonNullable<ProviderCallOptions['onSend']>): HookInit {
  return { [ON_SEND]: onSend } as HookInit;
}

/**
 * The SDK's `fetch`, calling the request's `onSend` (see `sendHookOptions`) right before it goes:
 * anything the SDK threw before this point (serialising the body, building the headers) left nothing
 * on the wire, and the router then holds the request, not the provider, to blame.
 */
export function sendingFetch(fetch: SdkFetch): SdkFetch {
  // The key stays on `init` (a fresh object the SDK built for this request): fetch and the
  // node:http transport read only the members they know, and a copy would cost every call.
  return (input, init) => {
    (init as WithHook | undefined)?.[ON_SEND]?.();
    return fetch(input, init);
  };
}
