import { APIError } from 'openai';

/**
 * The error some OpenAI-compatible services put inside a 200 answer instead of an HTTP status:
 * OpenRouter reports an upstream provider that failed mid-generation as `choices[0].error`
 * (`{code, message, metadata: {error_type}}`) with `finish_reason: "error"`. Returned as the SDK's
 * status-less `APIError` (with the response's headers: a web `Headers`, or what builds one only now,
 * so a good answer never pays for it), the same shape as an error frame in a stream, so one mapping reads both.
 */
export function embeddedError(data: unknown, headers: Headers | { webHeaders(): Headers }): APIError | undefined {
  const choice = (data as { choices?: Array<{ error?: unknown; finish_reason?: unknown }> } | null)?.choices?.[0];
  const error = choice?.error;
  if (typeof error !== 'object' || error === null) return undefined;
  return new APIError(undefined, error as object, undefined, headers instanceof Headers ? headers : headers.webHeaders());
}
