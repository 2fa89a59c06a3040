/** A Gemini API path the simulator answers: `/{provider}/v1beta/models/{model}:{method}` (or `/v1beta/...` for the first Gemini provider). */
export interface GeminiRouteMatch {
  provider?: string;
  model: string;
  method: 'generateContent' | 'streamGenerateContent' | 'batchEmbedContents';
  /** `?alt=sse`: the stream as server-sent events. */
  sse: boolean;
}

const ROUTE = /^\/(?:([^/]+)\/)?v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent|batchEmbedContents)$/;

/** The route of a request path (`url` for its query), or undefined when it is not a Gemini one. */
export function geminiRoute(path: string, url: string): GeminiRouteMatch | undefined {
  const match = ROUTE.exec(path);
  if (!match) return undefined;
  const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
  return {
    ...(match[1] ? { provider: match[1] } : {}),
    model: decodeURIComponent(match[2]!),
    method: match[3] as GeminiRouteMatch['method'],
    sse: query.get('alt') === 'sse',
  };
}
