import type OpenAI from 'openai';
import type { ContentPart } from '../../src/types.js';
import { imageSource, unsupported } from '../shared/content-source.js';

interface Where {
  provider: string;
  model: string;
}

/** Chat Completions takes PDFs only as file input (the Responses API takes more). */
const OPENAI_FILE_TYPES = new Set(['application/pdf']);

const EXTENSIONS: Readonly<Record<string, string>> = { 'application/pdf': 'pdf', 'text/plain': 'txt' };

/**
 * A user message's parts as Chat Completions parts: text; images as `image_url` (an https URL or the
 * data: URL as given, validated); files as `file` with `file_data` as a data: URL (the form OpenAI's
 * file-input guide shows) and a filename (a default one when the part has none).
 * `openai-compatible` servers get any file type: what they accept is their declared capability.
 */
export function openAIContentParts(parts: ContentPart[], where: Where, compatible: boolean): OpenAI.ChatCompletionContentPart[] {
  return parts.map((part): OpenAI.ChatCompletionContentPart => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image': {
        imageSource(part.url, where);
        return { type: 'image_url', image_url: { url: part.url, ...(part.detail ? { detail: part.detail } : {}) } };
      }
      case 'file': {
        if (!compatible && !OPENAI_FILE_TYPES.has(part.mediaType)) unsupportedFile(where, part.mediaType);
        const filename = part.filename ?? `file.${EXTENSIONS[part.mediaType] ?? 'bin'}`;
        return { type: 'file', file: { file_data: `data:${part.mediaType};base64,${part.data}`, filename } };
      }
    }
  });
}

function unsupportedFile(where: Where, mediaType: string): never {
  throw unsupported(where, `a ${mediaType} file (Chat Completions takes PDF files only)`);
}
