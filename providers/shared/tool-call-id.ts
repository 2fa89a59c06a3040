/** Anthropic's rule for `tool_use.id` and `tool_result.tool_use_id` (ids from e.g. Kimi, `functions.Bash:0`, fail it). */
const ANTHROPIC_ID = /^[a-zA-Z0-9_-]+$/;
/** OpenAI rejects longer tool-call ids ("Expected a string with maximum length 40"). */
const OPENAI_MAX_ID = 40;

/** FNV-1a over the id, as 8 hex digits: the same id always gets the same suffix. */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * A tool-call id as Anthropic accepts it. Valid ids pass unchanged (OpenAI's `call_...`, Anthropic's
 * own `toolu_...`); others have every other character replaced and a fingerprint of the original
 * appended, so two different ids never meet. Pure: the tool_use and its tool_result map alike.
 */
export function anthropicToolId(id: string): string {
  if (ANTHROPIC_ID.test(id)) return id;
  const safe = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return `${safe || 'toolu'}_${fingerprint(id)}`;
}

/** A tool-call id as OpenAI accepts it: ids of at most 40 characters pass unchanged, longer ones are shortened the same way every time. */
export function openAIToolId(id: string): string {
  if (id.length <= OPENAI_MAX_ID) return id;
  return `${id.slice(0, OPENAI_MAX_ID - 9)}_${fingerprint(id)}`;
}
