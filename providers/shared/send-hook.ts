import type { ProviderCallOptions } from '../types.js';

/**
 * Where a request's options ride from the adapter to the moment its SDK sends it: a symbol-keyed
 * member of the request body the adapter built. JSON.stringify skips symbol keys, so the wire never
 * sees it, and it adds no member to the SDK's request options (which the SDKs copy several times a
 * request, a copy per member).
 */
const ON_SEND = Symbol('switchyard.onSend');

type Hooked = { [ON_SEND]?: ProviderCallOptions };

/** What of an SDK client the hook needs: the step each request passes once its body is serialised and its headers built. */
interface Preparing {
  prepareRequest(request: RequestInit, context: { url: string; options: { body?: unknown } }): Promise<void>;
}

/**
 * Tags an SDK request body with its call's options, so that `announcingSends` calls their `onSend`
 * (as a method: the router's is one, no closure per request) when the SDK sends it.
 */
export function withSendHook<B extends object>(body: B, options: ProviderCallOptions): B {
  if (options.onSend) (body as Hooked)[ON_SEND] = options;
  return body;
}

/**
 * Makes an openai or anthropic SDK client call each request's `onSend` (see `withSendHook`) in its
 * `prepareRequest` step: after the body was serialised and the headers built, right before the fetch.
 * Anything the SDK threw before that point left nothing on the wire, and the router then holds the
 * request, not the provider, to blame.
 */
export function announcingSends<C extends object>(client: C): C {
  const sdk = client as unknown as Preparing;
  const prepare = sdk.prepareRequest.bind(sdk);
  sdk.prepareRequest = (request, context) => {
    (context.options.body as Hooked | undefined)?.[ON_SEND]?.onSend?.();
    return prepare(request, context);
  };
  return client;
}
