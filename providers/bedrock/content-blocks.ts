import type { ContentBlock, DocumentFormat, ImageFormat } from '@aws-sdk/client-bedrock-runtime';
import type { ContentPart, FilePart } from '../../src/types.js';
import { imageSource, unsupported } from '../shared/content-source.js';
import { cachePointsFor } from './cache-point.js';

interface Where {
  provider: string;
  model: string;
}

const IMAGE_FORMAT: Readonly<Record<string, ImageFormat>> = {
  'image/jpeg': 'jpeg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp',
};

/** Converse's document formats by media type (DocumentBlock.format). */
const DOCUMENT_FORMAT: Readonly<Record<string, DocumentFormat>> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

const bytesOf = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));

/**
 * A document name as Converse takes it: letters, digits, single spaces, hyphens, parentheses and
 * square brackets (so no extension dot), unique within the request.
 */
function documentName(part: FilePart, taken: Set<string>): string {
  const stem = (part.filename ?? '').replace(/\.[^.]*$/, '');
  let name = stem.replace(/[^A-Za-z0-9\s()[\]-]/g, '-').replace(/\s+/g, ' ').trim() || 'document';
  for (let n = 2; taken.has(name); n++) name = `${name.replace(/ \(\d+\)$/, '')} (${n})`;
  taken.add(name);
  return name;
}

function imageBlock(url: string, where: Where): ContentBlock {
  if (url.startsWith('s3://')) {
    const format = IMAGE_FORMAT[`image/${(/\.([a-z]+)$/i.exec(url)?.[1] ?? '').toLowerCase().replace('jpg', 'jpeg')}`];
    if (!format) throw unsupported(where, `an s3:// image whose extension names no format Converse takes (${Object.values(IMAGE_FORMAT).join(', ')})`);
    return { image: { format, source: { s3Location: { uri: url } } } };
  }
  const source = imageSource(url, where);
  // Converse takes image bytes or an S3 location, never a URL to fetch.
  if (source.type === 'url') throw unsupported(where, 'an image by https: URL (Converse takes image bytes, a data: URL, or an s3:// location)');
  return { image: { format: IMAGE_FORMAT[source.mediaType]!, source: { bytes: bytesOf(source.data) } } };
}

/**
 * A user message's parts as Converse content blocks: text (blank text dropped: Converse refuses
 * it), images as bytes (from a data: URL) or an S3 location, files as `document` blocks of the
 * formats Converse reads (PDF, CSV, DOC, DOCX, XLS, XLSX, HTML, TXT, MD); any other file type, and an
 * image by https: URL, is `unsupported` (the chain moves on without a request). A part's `cache`
 * is a `cachePoint` block after it (cache-point.ts).
 */
export function userBlocks(parts: readonly ContentPart[], where: Where): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  const names = new Set<string>();
  const cachePoints = cachePointsFor(where.model);
  for (const part of parts) {
    if (part.type === 'text') {
      if (part.text.trim() === '') continue;
      blocks.push({ text: part.text });
    } else if (part.type === 'image') {
      blocks.push(imageBlock(part.url, where));
    } else {
      const format = DOCUMENT_FORMAT[part.mediaType.toLowerCase()];
      if (!format) throw unsupported(where, `a ${part.mediaType} file (Converse documents are ${Object.values(DOCUMENT_FORMAT).join(', ')})`);
      blocks.push({ document: { format, name: documentName(part, names), source: { bytes: bytesOf(part.data) } } });
    }
    blocks.push(...cachePoints(part.cache));
  }
  return blocks;
}
