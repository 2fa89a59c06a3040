import { costUsd } from '../../decide/cost.js';
import type { Call } from '../state/call.js';
import type { Price } from '../../spend/prices.js';
import type { SettleOutcome } from '../admission/admission.js';

/** Adds a sent attempt's cost, priced from its usage, to its call's (`costUsd`); returns it, or undefined when it had no usage. */
export function addCallCost(call: Call, price: Price, outcome: SettleOutcome): number | undefined {
  if (!outcome.sent || !outcome.usage) return undefined;
  const cost = costUsd(outcome.usage, price);
  call.cost.usd = (call.cost.usd ?? 0) + cost;
  return cost;
}
