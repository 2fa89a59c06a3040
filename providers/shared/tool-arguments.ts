import { RouterError } from '../../src/errors.js';

interface Where {
  provider: string;
  model: string;
}

/**
 * A tool call's arguments, parsed from the JSON string the model wrote. An empty string is a call
 * without arguments (`{}`, what Anthropic streams for one and some OpenAI-compatible servers send);
 * anything that is not a JSON object throws `invalid_output` with the raw text attached.
 */
export function parseToolArguments(raw: string, name: string, where: Where): Record<string, unknown> {
  if (raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalidArguments(raw, name, where, 'are not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidArguments(raw, name, where, 'are not a JSON object');
  }
  return parsed as Record<string, unknown>;
}

function invalidArguments(raw: string, name: string, where: Where, what: string): RouterError {
  return new RouterError('invalid_output', `${where.provider} answered a call of tool "${name}" whose arguments ${what}`, Object.assign({}, where, { code: 'invalid_tool_arguments', raw }));
}
