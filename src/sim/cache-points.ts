/**
 * Where a request asked the provider to cache its prompt, found in the raw body as the parsers
 * read it: a point is the prefix of the request's tools (`tools` of them) and of its parsed
 * messages (`messages` of them, the system message first when there is one), with its lifetime.
 * A breakpoint on a content block ends its message's prefix (the simulator caches whole messages).
 */
export interface CachePoint {
  tools: number;
  messages: number;
  ttl: '5m' | '1h';
}

const isObject = (x: unknown): x is Record<string, any> => typeof x === 'object' && x !== null && !Array.isArray(x);
const ttlOf = (mark: unknown): '5m' | '1h' | undefined => (isObject(mark) ? (mark.ttl === '1h' ? '1h' : '5m') : undefined);

/**
 * Anthropic's `cache_control` breakpoints: on tool definitions (server tools are not counted as
 * tools, as the parser skips them), system blocks, message content blocks, and the top-level
 * `cache_control` (automatic caching: a breakpoint on the last cacheable block).
 * https://platform.claude.com/docs/en/build-with-claude/prompt-caching
 */
export function anthropicCachePoints(json: Record<string, any>, turnSizes: readonly number[], hasSystem: boolean): CachePoint[] {
  const out: CachePoint[] = [];
  let tools = 0;
  for (const tool of Array.isArray(json.tools) ? json.tools : []) {
    if (!(isObject(tool) && tool.type !== undefined && tool.type !== null && tool.type !== 'custom')) tools++;
    const ttl = ttlOf(tool?.cache_control);
    if (ttl) out.push({ tools, messages: 0, ttl });
  }
  let messages = hasSystem ? 1 : 0;
  for (const block of Array.isArray(json.system) ? json.system : []) {
    const ttl = ttlOf(block?.cache_control);
    if (ttl) out.push({ tools, messages, ttl });
  }
  (json.messages as unknown[]).forEach((m, i) => {
    messages += turnSizes[i] ?? 0;
    const content = isObject(m) && Array.isArray(m.content) ? m.content : [];
    for (const block of content) {
      const ttl = ttlOf(block?.cache_control);
      if (ttl) out.push({ tools, messages, ttl });
    }
  });
  const top = ttlOf(json.cache_control);
  if (top) out.push({ tools, messages, ttl: top });
  return out;
}

/**
 * Bedrock Converse `cachePoint` blocks: in `toolConfig.tools`, in `system`, in message content.
 * https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html
 */
export function converseCachePoints(json: Record<string, any>, turnSizes: readonly number[], hasSystem: boolean): CachePoint[] {
  const out: CachePoint[] = [];
  const ttlOfPoint = (block: unknown) => (isObject(block) && isObject(block.cachePoint) ? (block.cachePoint.ttl === '1h' ? '1h' as const : '5m' as const) : undefined);
  let tools = 0;
  const toolList = isObject(json.toolConfig) && Array.isArray(json.toolConfig.tools) ? json.toolConfig.tools : [];
  for (const entry of toolList) {
    if (isObject(entry) && isObject(entry.toolSpec)) tools++;
    const ttl = ttlOfPoint(entry);
    if (ttl) out.push({ tools, messages: 0, ttl });
  }
  let messages = hasSystem ? 1 : 0;
  for (const block of Array.isArray(json.system) ? json.system : []) {
    const ttl = ttlOfPoint(block);
    if (ttl) out.push({ tools, messages, ttl });
  }
  (json.messages as unknown[]).forEach((m, i) => {
    messages += turnSizes[i] ?? 0;
    for (const block of isObject(m) && Array.isArray(m.content) ? m.content : []) {
      const ttl = ttlOfPoint(block);
      if (ttl) out.push({ tools, messages, ttl });
    }
  });
  return out;
}
