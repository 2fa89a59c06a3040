import { messageText } from '../types.js';
import { stableHashHex } from '../../providers/shared/answers/index.js';
import type { Message } from '../types.js';

const PREFIX = 'switchyard-sim-thinking:';

/** The thinking a simulated Claude shows: one sentence about the last user turn. */
export function thinkingText(messages: readonly Message[]): string {
  const user = [...messages].reverse().find((m) => m.role === 'user');
  const topic = user ? messageText(user).trim().split(/\s+/).slice(0, 8).join(' ') : '';
  return `The user asked: "${topic}". I will answer briefly and exactly.`;
}

/** The block's signature: base64 of a fingerprint of the full thinking (sent even when the text is omitted). */
export function thinkingSignature(thinking: string): string {
  return Buffer.from(`${PREFIX}${stableHashHex(thinking)}`).toString('base64');
}

/**
 * True when a thinking block came back as the simulator sent it: a simulator signature, matching the
 * thinking text when that text was shown (an omitted thinking's empty text matches any of ours).
 */
export function signatureMatches(thinking: string, signature: unknown): boolean {
  if (typeof signature !== 'string') return false;
  const decoded = Buffer.from(signature, 'base64').toString('utf8');
  if (!decoded.startsWith(PREFIX)) return false;
  return thinking === '' || decoded === `${PREFIX}${stableHashHex(thinking)}`;
}
