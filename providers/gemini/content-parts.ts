import { RouterError } from '../../src/errors.js';
import type { ContentPart } from '../../src/types.js';
import { IMAGE_MEDIA_TYPES, parseDataURL, unsupported } from '../shared/content-source.js';
import type { GeminiPart } from './wire-types.js';

interface Where {
  provider: string;
  model: string;
}

/** The image types Gemini reads (image understanding guide); GIF is not one of them. */
const GEMINI_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif']);
/** An image URL's type from its file name: `fileData` needs a mime type, and a URL carries none of its own. */
const EXTENSION_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', heic: 'image/heic', heif: 'image/heif',
};
/** Files Gemini reads inline: documents (PDF, text), audio and video, and the images above. */
const FILE_TYPE = /^(application\/pdf|text\/[\w.+-]+|audio\/[\w.+-]+|video\/[\w.+-]+)$/;

function urlImage(url: string, where: Where): GeminiPart {
  const extension = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  const mimeType = extension ? EXTENSION_TYPES[extension] : undefined;
  if (!mimeType) throw unsupported(where, `an image URL without a png, jpeg, webp or heic file name (${where.provider} needs the image's type to fetch it; send it as a data: URL)`);
  return { fileData: { mimeType, fileUri: url } };
}

function imagePart(url: string, where: Where): GeminiPart {
  if (/^https?:\/\//i.test(url)) return urlImage(url, where);
  const inline = parseDataURL(url);
  if (!inline) {
    throw new RouterError('invalid_request', `${where.provider}: an image must be an https: URL or a base64 data: URL`, Object.assign({}, where, { code: 'invalid_image_url' }));
  }
  if (GEMINI_IMAGE_TYPES.has(inline.mediaType)) return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
  // A type other providers take (GIF): another target may carry it.
  if (IMAGE_MEDIA_TYPES.has(inline.mediaType)) throw unsupported(where, `a ${inline.mediaType} image (Gemini reads PNG, JPEG, WebP, HEIC and HEIF)`);
  throw new RouterError('invalid_request', `${where.provider}: image type ${inline.mediaType} is not an image type any provider takes`, Object.assign({}, where, { code: 'invalid_image_type' }));
}

/**
 * A user message's parts as Gemini parts: text (empty text dropped: the API refuses an empty text
 * part); images inline (`inlineData`) from a data: URL, or by URL (`fileData`, which Gemini fetches
 * itself) with the type read from the file name; files inline with their media type (PDF, text,
 * audio, video; others are `unsupported`). `detail` and `filename` have no Gemini field and are dropped.
 */
export function geminiUserParts(parts: readonly ContentPart[], where: Where): GeminiPart[] {
  const out: GeminiPart[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      if (part.text !== '') out.push({ text: part.text });
    } else if (part.type === 'image') {
      out.push(imagePart(part.url, where));
    } else {
      const mediaType = part.mediaType.toLowerCase();
      if (!FILE_TYPE.test(mediaType) && !GEMINI_IMAGE_TYPES.has(mediaType)) throw unsupported(where, `a ${part.mediaType} file (Gemini reads PDF, text, audio, video and image files)`);
      out.push({ inlineData: { mimeType: mediaType, data: part.data } });
    }
  }
  return out;
}
