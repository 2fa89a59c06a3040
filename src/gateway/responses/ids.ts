import { randomBytes } from 'node:crypto';

// Ids the way OpenAI shapes them (`resp_`, `msg_`, `fc_` and hex), so clients that check prefixes
// accept them. An item id carries its response's: an `item_reference` finds its response with no
// index of its own.

const HEX = 48;
const ITEM = /^(?:msg|fc)_([0-9a-f]{48})_\d+$/;

/** A fresh response id: `resp_` and 24 random bytes in hex (unguessable: it is a conversation's only key). */
export function newResponseId(): string {
  return `resp_${randomBytes(HEX / 2).toString('hex')}`;
}

const hexOf = (responseId: string) => responseId.slice('resp_'.length);

/** The id of the `index`th output item of a response: `msg_…` for a message, `fc_…` for a function call. */
export function itemId(responseId: string, kind: 'msg' | 'fc', index: number): string {
  return `${kind}_${hexOf(responseId)}_${index}`;
}

/** The response an item id of ours belongs to, or undefined for an id the gateway never minted. */
export function responseIdOfItem(id: string): string | undefined {
  const m = ITEM.exec(id);
  return m ? `resp_${m[1]}` : undefined;
}

/**
 * True for an id shaped like one `newResponseId` makes, or like the ones OpenAI's Responses API
 * mints (`resp_` and letters and digits), which a passed-through answer is kept under.
 */
export function isResponseId(id: string): boolean {
  return /^resp_[0-9A-Za-z]{8,200}$/.test(id);
}
