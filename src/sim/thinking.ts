import { messageText } from '../types.js';
import { stableHashHex } from '../../providers/shared/answers/index.js';
import type { Message } from '../types.js';

/**
 * Whose model signed: Claude's thinking (the Messages API and Bedrock Converse alike: one model,
 * signatures valid on either), Gemini's thought signatures, OpenAI's encrypted reasoning. Each
 * upstream verifies only its own family's, as the real ones do (a foreign signature is a 400).
 */
export type SignatureFamily = 'claude' | 'gemini' | 'openai';

const PREFIX: Readonly<Record<SignatureFamily, string>> = {
  claude: 'switchyard-sim-thinking:',
  gemini: 'switchyard-sim-gemini-thought:',
  openai: 'switchyard-sim-openai-reasoning:',
};

/** The thinking a simulated Claude shows: one sentence about the last user turn. */
export function thinkingText(messages: readonly Message[]): string {
  const user = [...messages].reverse().find((m) => m.role === 'user');
  const topic = user ? messageText(user).trim().split(/\s+/).slice(0, 8).join(' ') : '';
  return `The user asked: "${topic}". I will answer briefly and exactly.`;
}

/** The block's signature: base64 of a fingerprint of the full thinking (sent even when the text is omitted), in its family's form. */
export function thinkingSignature(thinking: string, family: SignatureFamily = 'claude'): string {
  return Buffer.from(`${PREFIX[family]}${stableHashHex(thinking)}`).toString('base64');
}

/**
 * True when a thinking block came back as the simulator sent it: a simulator signature of the family, matching the
 * thinking text when that text was shown (an omitted thinking's empty text matches any of ours).
 */
export function signatureMatches(thinking: string, signature: unknown, family: SignatureFamily = 'claude'): boolean {
  if (typeof signature !== 'string') return false;
  const decoded = Buffer.from(signature, 'base64').toString('utf8');
  if (!decoded.startsWith(PREFIX[family])) return false;
  return thinking === '' || decoded === `${PREFIX[family]}${stableHashHex(thinking)}`;
}
