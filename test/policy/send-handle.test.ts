import { describe, expect, it } from 'vitest';
import type { ProviderCallOptions } from '../../providers/types.js';
import { SendHandle } from '../../src/policy/steps/send-handle.js';
import { sdkRequestOptions } from '../../providers/shared/request-options.js';
import { announcingSends } from '../../providers/shared/send-hook.js';

// An attempt's handle carries onSend as a method (no closure per request); the SDK request options
// carry no member that is not set; the hook rides on the body, where JSON never shows it.

describe('SendHandle', () => {
  it('marks its attempt sent when the adapter calls options.onSend()', () => {
    const attempt = { sent: false };
    const handle = new SendHandle(attempt, 5_000, undefined);
    expect(attempt.sent).toBe(false);
    handle.onSend();
    expect(attempt.sent).toBe(true);
    expect(handle.timeoutMs).toBe(5_000);
  });

  it('refuses a detached call with an error naming the rule, and marks nothing', () => {
    const attempt = { sent: false };
    // As an adapter would hold it: its options, typed as every adapter sees them.
    const options: ProviderCallOptions = new SendHandle(attempt, undefined, undefined);
    const { onSend } = options;
    expect(() => onSend!()).toThrow(new TypeError('ProviderCallOptions.onSend must be called on the options it came with: options.onSend()'));
    expect(attempt.sent).toBe(false);
  });
});

describe('sdkRequestOptions', () => {
  it('carries only the members that are set, the timeout whole', () => {
    const signal = new AbortController().signal;
    expect(sdkRequestOptions({}, {})).toStrictEqual({});
    expect(sdkRequestOptions({ timeoutMs: 1_500.2 }, {})).toStrictEqual({ timeout: 1_501 });
    expect(sdkRequestOptions({ signal }, {})).toStrictEqual({ signal });
    expect(sdkRequestOptions({ signal, timeoutMs: 0.3 }, {})).toStrictEqual({ signal, timeout: 1 });
  });

  it('tags the body so the client calls onSend in prepareRequest, once, after the body was built, and the wire never sees the tag', async () => {
    const calls: string[] = [];
    const options = { onSend: () => calls.push('onSend') };
    const body = { model: 'm', messages: [] };
    sdkRequestOptions(options, body);
    expect(JSON.stringify(body)).toBe('{"model":"m","messages":[]}');
    const client = announcingSends({
      async prepareRequest(_request: RequestInit, _context: { url: string; options: { body?: unknown } }) {
        calls.push('prepare');
      },
    });
    await client.prepareRequest({}, { url: 'http://127.0.0.1/', options: { body } });
    expect(calls).toEqual(['onSend', 'prepare']);
    await client.prepareRequest({}, { url: 'http://127.0.0.1/', options: { body: { untagged: true } } });
    expect(calls).toEqual(['onSend', 'prepare', 'prepare']);
  });
});
