import type { PassThroughApi, RawTarget } from '../../providers/types.js';
import { passThroughBlocker, passThroughBytes, withModel, type PassThroughSent } from './pass-through.js';
import { messagesPassThroughBlocker } from './messages-pass-through.js';
import { responsesPassThroughBlocker } from './responses-pass-through.js';

/** What the decision reads of a call's pass-through body (src/pass-through/seam.ts carries it): its bytes, parsed, its API, and whether a stream's usage must be asked for. */
export interface PassThroughBody {
  readonly text: string;
  readonly body: Record<string, unknown>;
  readonly api: PassThroughApi;
  /** `passThroughAddsUsage(body)`, read once per call. */
  readonly addsUsage: boolean;
}

/**
 * The one "may this go raw?" decision, per target: the bytes this target is sent for the call's
 * pass-through body, or undefined when it gets the translated request. A target goes raw when it
 * takes the body's API as it is (`rawTarget`) and that API's blocker finds nothing the router
 * would map: `passThroughBlocker` for Chat Completions, `responsesPassThroughBlocker` for the
 * Responses API, `messagesPassThroughBlocker` for Anthropic's Messages. Only `model` is rewritten,
 * and a Chat Completions stream asks for usage.
 */
export function passThroughSend(pass: PassThroughBody, target: RawTarget | undefined, sent: PassThroughSent, chain: string, model: string): string | undefined {
  if (target === undefined || target.api !== pass.api) return undefined;
  if (target.api === 'responses') {
    return responsesPassThroughBlocker(pass.body, target, sent) === undefined ? withModel(pass.text, pass.body, chain, model) : undefined;
  }
  if (target.api === 'messages') {
    return messagesPassThroughBlocker(pass.body, target, sent) === undefined ? withModel(pass.text, pass.body, chain, model) : undefined;
  }
  return passThroughBlocker(pass.body, target, sent) === undefined ? passThroughBytes(pass.text, pass.body, chain, model, pass.addsUsage) : undefined;
}

