import { RouterError } from '../../src/errors.js';

/** The image types both OpenAI and Anthropic accept inline. */
export const IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** An image as a URL to fetch or inline bytes. */
export type ImageSource = { type: 'url'; url: string } | { type: 'base64'; mediaType: string; data: string };

interface Where {
  provider: string;
  model: string;
}

const DATA_URL = /^data:([^;,]+)((?:;[^;,]+)*?);base64,(.*)$/s;

/** `data:<type>[;params];base64,<data>` split into its media type and data; undefined for anything else. */
export function parseDataURL(url: string): { mediaType: string; data: string } | undefined {
  const match = DATA_URL.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1]!.toLowerCase(), data: match[3]! };
}

/**
 * Where an image part's bytes come from: an `http(s):` URL, or a base64 `data:` URL of a type the
 * providers take. Anything else is the caller's mistake on every provider: `invalid_request`.
 */
export function imageSource(url: string, where: Where): ImageSource {
  if (/^https?:\/\//i.test(url)) return { type: 'url', url };
  const inline = parseDataURL(url);
  if (!inline) {
    throw new RouterError('invalid_request', `${where.provider}: an image must be an https: URL or a base64 data: URL`, Object.assign({}, where, { code: 'invalid_image_url' }));
  }
  if (!IMAGE_MEDIA_TYPES.has(inline.mediaType)) {
    throw new RouterError('invalid_request', `${where.provider}: image type ${inline.mediaType} is not one of ${[...IMAGE_MEDIA_TYPES].join(', ')}`, Object.assign({}, where, { code: 'invalid_image_type' }));
  }
  return { type: 'base64', mediaType: inline.mediaType, data: inline.data };
}

/** A request this provider cannot carry at all: nothing is sent, and the chain may try another target. */
export function unsupported(where: Where, what: string): RouterError {
  return new RouterError('unsupported', `${where.provider} cannot carry ${what}`, Object.assign({}, where, { code: 'unsupported_content' }));
}
