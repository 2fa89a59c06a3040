/**
 * Puts the request's API key, in full, at the end of an error's message: what an `openai-compatible`
 * server or a proxy may do (OpenAI itself masks the middle), so a test can prove the router hides it.
 * Both APIs keep the message at `error.message`; a body without one is left as it is.
 */
export function echoKeyInBody(body: unknown, key: string): unknown {
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  // Bedrock's errors keep it at the top: `{"message": ...}`.
  const top = (body as { message?: unknown } | null)?.message;
  if (key && !error && typeof top === 'string') return { ...(body as object), message: `${top} (key: ${key})` };
  if (!key || typeof error?.message !== 'string') return body;
  return { ...(body as object), error: { ...error, message: `${error.message} (key: ${key})` } };
}

/** The same for a mid-stream error frame (`event:` line optional, one `data:` line of JSON). */
export function echoKeyInFrame(frame: string, key: string): string {
  return frame.replace(/^data: (.*)$/m, (_line, json: string) => `data: ${JSON.stringify(echoKeyInBody(JSON.parse(json), key))}`);
}
