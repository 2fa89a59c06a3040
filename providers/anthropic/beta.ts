/**
 * The SDK's request options with the call's `anthropic-beta` header (the SDK's own per-request
 * `headers` option: the `betas` parameter exists only on `client.beta.messages`, whose types are
 * the beta API's; the header is what `betas` becomes on the wire).
 */
export function withBeta<O extends object>(options: O, beta: string | undefined): O & { headers?: Record<string, string> } {
  return beta === undefined ? options : Object.assign(options, { headers: { 'anthropic-beta': beta } });
}

