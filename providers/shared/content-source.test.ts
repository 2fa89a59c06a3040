import { describe, expect, it } from 'vitest';
import { imageSource, parseDataURL } from './content-source.js';
import { splitBaseURL, providerQuery } from './base-url.js';

const where = { provider: 'p', model: 'm' };

describe('image sources', () => {
  it.each([
    ['https://example.com/cat.png', { type: 'url', url: 'https://example.com/cat.png' }],
    ['data:image/png;base64,iVBORw0KGgo=', { type: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' }],
    ['data:image/JPEG;base64,/9j/4AAQ', { type: 'base64', mediaType: 'image/jpeg', data: '/9j/4AAQ' }],
  ])('reads %s', (url, expected) => {
    expect(imageSource(url, where)).toEqual(expected);
  });

  it.each([
    ['an image type the providers do not take', 'data:image/bmp;base64,Qk0=', 'invalid_image_type'],
    ['a data: URL that is not base64', 'data:image/png,rawbytes', 'invalid_image_url'],
    ['a file: URL', 'file:///etc/passwd', 'invalid_image_url'],
  ])('refuses %s as invalid_request', (_what, url, code) => {
    expect(() => imageSource(url, where)).toThrow(expect.objectContaining({ kind: 'invalid_request', code }));
  });

  it('splits a data: URL with parameters before base64', () => {
    expect(parseDataURL('data:application/pdf;name=a.pdf;base64,JVBERi0=')).toEqual({ mediaType: 'application/pdf', data: 'JVBERi0=' });
  });
});

describe('base URLs with a query string', () => {
  it('moves the query out of the base URL, so paths are appended to the path', () => {
    expect(splitBaseURL('https://r.openai.azure.com/openai/deployments/gpt4o?api-version=2024-10-21'))
      .toEqual({ baseURL: 'https://r.openai.azure.com/openai/deployments/gpt4o', query: { 'api-version': '2024-10-21' } });
  });

  it('lets the provider\'s query setting win over the base URL\'s', () => {
    expect(splitBaseURL('https://x/v1?api-version=old&a=1', { 'api-version': 'new' })).toEqual({ baseURL: 'https://x/v1', query: { 'api-version': 'new', a: '1' } });
  });

  it('reads only string values of a provider\'s query, and nothing when there is none', () => {
    expect(providerQuery({ query: { a: '1', b: 2 } })).toEqual({ a: '1' });
    expect(providerQuery({})).toEqual({});
  });
});
