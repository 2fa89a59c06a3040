/** The image types both APIs accept. */
export const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Strict base64 (whitespace ignored, padding required): the bytes, or undefined when it is not base64. */
export function decodeBase64(data: string): Buffer | undefined {
  const clean = data.replace(/\s+/g, '');
  return BASE64.test(clean) ? Buffer.from(clean, 'base64') : undefined;
}

/** `data:<media type>[;...];base64,<data>` split up; undefined for anything else. */
export function parseDataUrl(url: string): { mediaType: string; base64: string } | undefined {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (!match || !match[2]!.split(';').includes('base64')) return undefined;
  return { mediaType: match[1]!.toLowerCase(), base64: match[3]! };
}

/** The image type its first bytes say (PNG, JPEG, GIF, WebP), or undefined. */
export function sniffImage(bytes: Buffer): (typeof IMAGE_MEDIA_TYPES)[number] | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return undefined;
}

/** True for an `http:` or `https:` URL (the APIs fetch those themselves; the simulator only counts them). */
export function isHttpUrl(url: string): boolean {
  return /^https?:\/\/[^\s/]+/i.test(url);
}
