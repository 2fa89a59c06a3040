/**
 * A base URL split into the part the SDK joins paths onto and its query string: the SDKs append
 * `/chat/completions` to the base URL verbatim, so `...?api-version=2024-10-21` would end up in the
 * middle of the path. The query is sent as the SDK's `defaultQuery` instead, with `query` (the
 * provider's `query` setting) taking precedence.
 */
export function splitBaseURL(baseURL: string, query: Record<string, string> = {}): { baseURL: string; query: Record<string, string> } {
  const at = baseURL.indexOf('?');
  if (at < 0) return { baseURL, query: { ...query } };
  const fromURL = Object.fromEntries(new URLSearchParams(baseURL.slice(at + 1)));
  return { baseURL: baseURL.slice(0, at), query: Object.assign({}, fromURL, query) };
}

/**
 * The provider's `query` setting (e.g. Azure's `{ 'api-version': '2024-10-21' }`), read defensively:
 * only string values count, and a config schema without the field yields `{}`.
 */
export function providerQuery(provider: object): Record<string, string> {
  const query = (provider as { query?: unknown }).query;
  if (typeof query !== 'object' || query === null) return {};
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
