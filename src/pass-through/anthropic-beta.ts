import type { ChatRequest } from '../types.js';

// The gateway client's `anthropic-beta` header, carried to the Anthropic targets of its call (the
// contract's "carried on the request as providerOptions.anthropic is not"): a symbol-keyed member of
// the request, as the pass-through seam's, so it is no public ChatRequest field, never serialised
// (JSON drops symbol keys: no log line, event or stored result shows it), and read only by
// providerRequest, which hands it to `anthropic` and `bedrock` targets alone (ProviderRequest.anthropicBeta).

const ANTHROPIC_BETA: unique symbol = Symbol.for('switchyard.anthropicBeta') as never;

type Carrying = { [ANTHROPIC_BETA]?: string };

/** Gives a request the client's `anthropic-beta` header (repeated headers joined with commas, as HTTP joins them); none, nothing. */
export function withAnthropicBeta<R extends ChatRequest>(request: R, header: string | string[] | undefined): R {
  const value = Array.isArray(header) ? header.join(',') : header?.trim();
  if (value) (request as Carrying)[ANTHROPIC_BETA] = value;
  return request;
}

/** The `anthropic-beta` header a request carries, if any. */
export function anthropicBetaOf(request: ChatRequest): string | undefined {
  return (request as Carrying)[ANTHROPIC_BETA];
}
