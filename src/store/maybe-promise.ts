/** A value, or a promise of it: the memory store answers at once, the Redis store later. */
export type MaybePromise<T> = T | Promise<T>;

/** True for a promise (or any thenable). */
export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/** Applies `fn` now when `value` is already there, later when it is a promise (not named `then`: a module exporting `then` is itself a thenable). */
export function andThen<T, U>(value: MaybePromise<T>, fn: (v: T) => MaybePromise<U>): MaybePromise<U> {
  return isPromise(value) ? value.then(fn) : fn(value);
}

/** Waits for whichever of `values` are promises; undefined (no wait at all) when none is. */
export function settled(values: ReadonlyArray<MaybePromise<unknown>>): Promise<void> | undefined {
  let pending: Array<Promise<unknown>> | undefined;
  for (const v of values) if (isPromise(v)) (pending ??= []).push(v);
  return pending && Promise.all(pending).then(() => undefined);
}
