import { describe, expect, it } from 'vitest';
import { AbortLink, callerAbortOf, realSignal, withCallerAbort } from '../../src/policy/abort/abort-link.js';

describe('AbortLink', () => {
  it('tells each listener once, with the reason set, and forgets them', () => {
    const link = new AbortLink();
    const heard: unknown[] = [];
    const a = () => heard.push(['a', link.aborted, link.reason]);
    link.addEventListener('abort', a);
    link.addEventListener('abort', () => heard.push(['b', link.reason]));
    link.abort('why');
    link.abort('again');
    expect(heard).toEqual([['a', true, 'why'], ['b', 'why']]);
    expect(link.reason).toBe('why');
    // Added after the abort: never called (the caller checks `aborted` first, as with a signal).
    link.addEventListener('abort', a);
    expect(heard).toHaveLength(2);
  });

  it('does not call a removed listener', () => {
    const link = new AbortLink();
    let calls = 0;
    const fn = () => calls++;
    link.addEventListener('abort', fn);
    link.removeEventListener('abort', fn);
    link.abort();
    expect(calls).toBe(0);
  });

  it('aborts with an AbortError by default', () => {
    const link = new AbortLink();
    link.abort();
    expect((link.reason as Error).name).toBe('AbortError');
  });

  it('makes a real AbortSignal only when asked, aborted with it, before or after the abort', () => {
    const before = new AbortLink();
    const signal = before.signal;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(before.signal).toBe(signal);
    let fired: unknown;
    signal.addEventListener('abort', () => (fired = signal.reason));
    before.abort('gone');
    expect(signal.aborted).toBe(true);
    expect(fired).toBe('gone');

    const after = new AbortLink();
    after.abort('late');
    expect(after.signal.aborted).toBe(true);
    expect(after.signal.reason).toBe('late');
  });

  it('realSignal gives a link\'s signal and passes a signal through', () => {
    const link = new AbortLink();
    expect(realSignal(link)).toBe(link.signal);
    const signal = new AbortController().signal;
    expect(realSignal(signal)).toBe(signal);
    expect(realSignal(undefined)).toBeUndefined();
  });

  it('callerAbortOf reads the request\'s own signal first, then the link the gateway gave it', () => {
    const link = new AbortLink();
    const signal = new AbortController().signal;
    expect(callerAbortOf(withCallerAbort({}, link))).toBe(link);
    expect(callerAbortOf(withCallerAbort({ signal }, link))).toBe(signal);
    expect(callerAbortOf(withCallerAbort({}, undefined))).toBeUndefined();
    // The link is no field a request serialises with.
    expect(JSON.stringify(withCallerAbort({ a: 1 }, link))).toBe('{"a":1}');
  });
});
