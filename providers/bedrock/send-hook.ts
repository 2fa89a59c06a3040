import type { ProviderCallOptions } from '../types.js';

/** What of an AWS SDK command the hook needs: its middleware stack. */
interface WithMiddleware {
  middlewareStack: {
    add(middleware: (next: (args: unknown) => Promise<unknown>) => (args: unknown) => Promise<unknown>, options: { step: 'finalizeRequest'; priority: 'low'; name: string }): void;
  };
}

/**
 * Calls the request's `onSend` as the command leaves: the last middleware before the transport,
 * after the input was serialised and the request signed. Whatever the SDK threw before it sent nothing.
 */
export function announceSend<C>(command: C, options: ProviderCallOptions): C {
  if (!options.onSend) return command;
  (command as unknown as WithMiddleware).middlewareStack.add((next) => (args) => {
    options.onSend?.(); // called on its options: the router's onSend is a method
    return next(args);
  }, { step: 'finalizeRequest', priority: 'low', name: 'switchyardOnSend' });
  return command;
}
