import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { IMAGE_TOKENS, promptTokens } from '../../providers/shared/answers/index.js';
import type { Message } from '../../src/types.js';
import { anthropicClient, errorOf, openAIClient, useSimulators } from './helpers.js';

const start = useSimulators();
/** The 8-byte PNG signature, the 3-byte JPEG one, and a tiny PDF header: enough for the sniffers. */
const PNG = 'iVBORw0KGgo=';
const JPEG = '/9j/4AAQ';
const PDF = Buffer.from('%PDF-1.4\n%fake\n').toString('base64');

describe('images and files, OpenAI', () => {
  it('accepts image_url (https and data URLs) and file parts, counts them in prompt_tokens and mentions them', async () => {
    const client = openAIClient(await start());
    const res = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{
        role: 'user', content: [
          { type: 'text', text: 'What is in these?' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' } },
        ],
      }],
    });
    const asRouter: Message[] = [{ role: 'user', content: [
      { type: 'text', text: 'What is in these?' },
      { type: 'image', url: 'https://example.com/cat.png', detail: 'low' },
      { type: 'image', url: `data:image/png;base64,${PNG}` },
      { type: 'file', data: PDF, mediaType: 'application/pdf', filename: 'report.pdf' },
    ] }];
    expect(res.usage!.prompt_tokens).toBe(promptTokens(asRouter));
    expect(res.usage!.prompt_tokens).toBe(promptTokens([{ role: 'user', content: 'What is in these?' }]) + IMAGE_TOKENS.low + IMAGE_TOKENS.high + IMAGE_TOKENS.low);
    expect(res.choices[0]!.message.content).toMatch(/Attached: 2 images, 1 file \(report\.pdf\)\.$/);
  });

  const image = (url: string) => [{ role: 'user' as const, content: [{ type: 'image_url' as const, image_url: { url } }] }];
  it.each([
    ['a URL that is neither https nor data', 'ftp://example.com/x.png', "but got a value without the 'data:' prefix."],
    ['a data URL whose base64 is empty', 'data:image/png;base64,', 'but got empty base64-encoded bytes.'],
    ['a data URL whose base64 is broken', 'data:image/png;base64,@@@', 'but got an invalid base64-encoded value.'],
    ['a data URL of a non-image type', `data:application/pdf;base64,${PDF}`, 'but got an unsupported MIME type.'],
  ])('rejects %s with invalid_value on its path', async (_what, url, tail) => {
    const client = openAIClient(await start());
    const err = await errorOf(client.chat.completions.create({ model: 'gpt-4o-mini', messages: image(url) }));
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.error).toEqual({
      message: `Invalid image URL: 'messages[0].content[0].image_url.url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), ${tail}`,
      type: 'invalid_request_error', param: 'messages[0].content[0].image_url.url', code: 'invalid_value',
    });
  });

  it('rejects image bytes that are no image, and file data that is not a base64 PDF data URL', async () => {
    const client = openAIClient(await start());
    const notImage = await errorOf(client.chat.completions.create({ model: 'gpt-4o-mini', messages: image(`data:image/png;base64,${PDF}`) }));
    expect(notImage.error).toMatchObject({ code: 'invalid_image_format', message: expect.stringMatching(/^You uploaded an unsupported image\./) });
    const file = await errorOf(client.chat.completions.create({
      model: 'gpt-4o-mini', messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: 'data:application/pdf;base64,!!', filename: 'a.pdf' } }] }],
    }));
    expect(file.error).toMatchObject({
      param: 'messages[0].content[0].file.file_data',
      message: "Invalid file data: 'messages[0].content[0].file.file_data'. Expected a base64-encoded data URL with an application/pdf MIME type (e.g. 'data:application/pdf;base64,SGVsbG8sIFdvcmxkIQ=='), but got an invalid base64-encoded value.",
    });
  });
});

describe('images and documents, Anthropic', () => {
  const block = (b: Anthropic.ContentBlockParam): Anthropic.MessageParam[] => [{ role: 'user', content: [{ type: 'text', text: 'Look' }, b] }];

  it('accepts base64 and URL images and PDF documents, counted like the router counts them', async () => {
    const client = anthropicClient(await start());
    const res = await client.messages.create({
      model: 'claude-haiku-4-5', max_tokens: 300,
      messages: [{ role: 'user', content: [
        { type: 'text', text: 'Look' },
        { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: JPEG } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'report.pdf' },
      ] }],
    });
    expect(res.usage.input_tokens).toBe(promptTokens([{ role: 'user', content: 'Look' }]) + 2 * IMAGE_TOKENS.high + IMAGE_TOKENS.low);
    expect((res.content[0] as Anthropic.TextBlock).text).toMatch(/Attached: 2 images, 1 file \(report\.pdf\)\.$/);
  });

  it.each([
    ['an image type Anthropic does not take', { type: 'image', source: { type: 'base64', media_type: 'image/svg+xml', data: PNG } },
      "messages.0.content.1.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'"],
    ['image bytes of another type than declared', { type: 'image', source: { type: 'base64', media_type: 'image/png', data: JPEG } },
      'messages.0.content.1.image.source.base64.data: Image does not match the provided media type image/png'],
    ['bytes that are no image at all', { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PDF } }, 'Could not process image'],
    ['a document that is not base64', { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: '%%%' } },
      'messages.0.content.1.document.source.base64.data: The PDF specified was not valid.'],
  ])('rejects %s with a 400', async (_what, b, message) => {
    const client = anthropicClient(await start());
    const err = await errorOf(client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 100, messages: block(b as Anthropic.ContentBlockParam) }));
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(err.error.error).toEqual({ type: 'invalid_request_error', message });
  });
});
