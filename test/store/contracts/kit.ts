import type { MaybePromise } from '../../../src/store/maybe-promise.js';

/** A time far from 0, passed explicitly: a store must use the `nowMs` it is given, never its own clock. */
export const T0 = 1_800_000_000_000;

/** Makes a fresh, empty store; keys are unique per test, so a shared server is fine. */
export type Make<S> = () => MaybePromise<S>;
/** Ends a test's store (closing it, and whatever else the implementation's suite checks). */
export type Close<S> = (store: S) => unknown;
