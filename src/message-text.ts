import type { Message } from './types.js';

/** The text a message carries (text parts joined; images and files are not text), for estimates and displays. */
export function messageText(message: Message): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (content === null) return '';
  let text = '';
  for (const part of content) if (part.type === 'text') text += part.text;
  return text;
}
