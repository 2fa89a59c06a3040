import type Anthropic from '@anthropic-ai/sdk';
import type { CacheBreakpoint, ContentPart, FilePart } from '../../src/types.js';
import { imageSource, unsupported } from '../shared/content-source.js';

interface Where {
  provider: string;
  model: string;
}

type UserBlock = Anthropic.TextBlockParam | Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam;

/**
 * A router cache breakpoint as Anthropic's `cache_control` field, spread onto the block it marks
 * (https://docs.claude.com/en/docs/build-with-claude/prompt-caching): the client's own object when
 * the gateway kept it (`cacheControl`: `scope` and keys the SDK's types do not know yet go as written).
 */
export function cacheControl(cache: CacheBreakpoint | undefined): { cache_control?: Anthropic.CacheControlEphemeral } {
  if (!cache) return {};
  if (cache.cacheControl) return { cache_control: cache.cacheControl as unknown as Anthropic.CacheControlEphemeral };
  return { cache_control: { type: 'ephemeral', ...(cache.ttl ? { ttl: cache.ttl } : {}) } };
}

function documentBlock(part: FilePart, where: Where): Anthropic.DocumentBlockParam {
  const title = part.filename ? { title: part.filename } : {};
  if (part.mediaType === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: part.data }, ...title };
  if (part.mediaType === 'text/plain') {
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: Buffer.from(part.data, 'base64').toString('utf8') }, ...title };
  }
  throw unsupported(where, `a ${part.mediaType} file (Anthropic documents are PDF or plain text)`);
}

/**
 * A user message's parts as Anthropic content blocks: text (empty text dropped: the API refuses
 * empty text blocks), images as `url` or `base64` sources (media type validated), PDFs as base64
 * `document` blocks and plain-text files as `text` documents; any other file type is `unsupported`.
 * A part's `cache` is its block's `cache_control`.
 */
export function anthropicUserBlocks(parts: readonly ContentPart[], where: Where): UserBlock[] {
  const blocks: UserBlock[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      if (part.text.trim() !== '') blocks.push({ type: 'text', text: part.text, ...cacheControl(part.cache) });
    } else if (part.type === 'image') {
      const source = imageSource(part.url, where);
      blocks.push(source.type === 'url'
        ? { type: 'image', source: { type: 'url', url: source.url }, ...cacheControl(part.cache) }
        : { type: 'image', source: { type: 'base64', media_type: source.mediaType as Anthropic.Base64ImageSource['media_type'], data: source.data }, ...cacheControl(part.cache) });
    } else {
      blocks.push(Object.assign({}, documentBlock(part, where), cacheControl(part.cache)));
    }
  }
  return blocks;
}
