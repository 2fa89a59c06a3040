import type { AnswerTool } from '../../providers/shared/answers/index.js';
import type { ContentPart, Message, ToolCall, ToolChoice } from '../types.js';
import { decodeBase64, isHttpUrl, sniffImage } from './data-url.js';
import type { SimError, SimRequest } from './sim-request.js';
import { signatureMatches } from './thinking.js';

// Gemini API v1beta generateContent bodies (providers/gemini/README.md has the sources). Messages
// the API is known to send are quoted; the others follow its `* Field: problem` style (synthetic).

/** How the simulator's route names the call: the model and method come from the URL, not the body. */
export interface GeminiRoute {
  model: string;
  stream: boolean;
}

/** The signatures Google documents for function calls Gemini did not write (another model's turns). */
const FOREIGN_SIGNATURES = new Set(['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go']);
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif']);

const invalid = (message: string): SimError => ({ kind: 'invalid_request', message });
const isObject = (x: unknown): x is Record<string, any> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** A request's model traits, as the real API behaves by model family. */
export function geminiFamily(model: string): { version: number; thinks: boolean; levels: boolean } {
  const match = /^(?:models\/)?gemini-(\d+)(?:\.(\d+))?/.exec(model);
  const version = match ? Number(match[1]) + (match[2] ? Number(match[2]) / 10 : 0) : 0;
  return { version, thinks: version >= 2.5, levels: version >= 3 };
}

function dataPart(part: any, path: string): ContentPart | SimError {
  const mimeType = String(part.inlineData.mimeType ?? '');
  const bytes = typeof part.inlineData.data === 'string' ? decodeBase64(part.inlineData.data) : undefined;
  if (!bytes) return invalid(`Invalid value at '${path}.inline_data.data' (TYPE_BYTES), Base64 decoding failed`);
  if (mimeType.startsWith('image/')) {
    if (!IMAGE_TYPES.has(mimeType)) return invalid(`Unsupported MIME type: ${mimeType}`);
    if (mimeType !== 'image/heic' && mimeType !== 'image/heif' && sniffImage(bytes) !== mimeType) return invalid('Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting');
    return { type: 'image', url: `data:${mimeType};base64,${part.inlineData.data}` };
  }
  return { type: 'file', data: part.inlineData.data, mediaType: mimeType };
}

/** One content's parts split by kind, in order. */
interface Turn {
  role: 'user' | 'model';
  parts: ContentPart[];
  calls: Array<ToolCall & { signed: boolean }>;
  results: Array<{ id?: string; name: string; response: unknown }>;
}

function turnOf(content: any, i: number): Turn | SimError {
  const role = content?.role ?? 'user';
  if (role !== 'user' && role !== 'model') return invalid(`* GenerateContentRequest.contents[${i}].role: Please use a valid role: user, model.`);
  if (!Array.isArray(content.parts) || content.parts.length === 0) return invalid(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`);
  const turn: Turn = { role, parts: [], calls: [], results: [] };
  for (let j = 0; j < content.parts.length; j++) {
    const part = content.parts[j];
    const path = `contents[${i}].parts[${j}]`;
    if (!isObject(part)) return invalid(`Invalid value at '${path}'`);
    // A signature Gemini did not sign (another provider's, or a stale one) is refused, whatever part
    // carries it (real text: google-gemini/gemini-cli#13467); the documented stand-ins pass.
    if (part.thoughtSignature !== undefined && !FOREIGN_SIGNATURES.has(part.thoughtSignature) && !signatureMatches('', part.thoughtSignature, 'gemini')) return invalid('Corrupted thought signature.');
    if (typeof part.text === 'string') {
      if (part.thought !== true && part.text !== '') turn.parts.push({ type: 'text', text: part.text });
    } else if (isObject(part.inlineData)) {
      const parsed = dataPart(part, path);
      if ('kind' in parsed) return parsed;
      turn.parts.push(parsed);
    } else if (isObject(part.fileData)) {
      const uri = String(part.fileData.fileUri ?? '');
      if (!part.fileData.mimeType) return invalid(`* GenerateContentRequest.${path}.file_data.mime_type: mime_type must be specified.`);
      if (!isHttpUrl(uri) && !uri.includes('/files/')) return invalid(`* GenerateContentRequest.${path}.file_data.file_uri: Invalid or unsupported file uri: ${uri}`);
      turn.parts.push(String(part.fileData.mimeType).startsWith('image/') ? { type: 'image', url: uri } : { type: 'file', data: '', mediaType: String(part.fileData.mimeType) });
    } else if (isObject(part.functionCall)) {
      if (role !== 'model') return invalid(`* GenerateContentRequest.${path}.function_call: only a model turn may call a function.`);
      const name = String(part.functionCall.name ?? '');
      turn.calls.push({ id: typeof part.functionCall.id === 'string' ? part.functionCall.id : '', name, arguments: isObject(part.functionCall.args) ? part.functionCall.args : {}, signed: typeof part.thoughtSignature === 'string' });
    } else if (isObject(part.functionResponse)) {
      if (!isObject(part.functionResponse.response)) return invalid(`* GenerateContentRequest.${path}.function_response.response: must be an object.`);
      turn.results.push({ id: typeof part.functionResponse.id === 'string' ? part.functionResponse.id : undefined, name: String(part.functionResponse.name ?? ''), response: part.functionResponse.response });
    }
  }
  return turn;
}

/**
 * Gemini 3 holds the function calls of the current turn (after the last user text) to their thought
 * signatures: the first call of each step must carry one (the model's, or a documented stand-in).
 */
function checkSignatures(turns: Turn[], model: string): SimError | undefined {
  if (!geminiFamily(model).levels) return undefined;
  let start = turns.length;
  while (start > 0 && !(turns[start - 1]!.role === 'user' && turns[start - 1]!.parts.length > 0)) start--;
  for (let i = start; i < turns.length; i++) {
    const first = turns[i]!.calls[0];
    if (first && !first.signed) {
      return invalid(`Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${first.name}\` , position ${i + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`);
    }
  }
  return undefined;
}

/** The turns as the router's messages: calls get ids (the API's, or `name#n`), results pair with them by id, else by name in order. */
function messagesOf(turns: Turn[], system: string): Message[] {
  const messages: Message[] = system ? [{ role: 'system', content: system }] : [];
  let open: ToolCall[] = [];
  let n = 0;
  for (const turn of turns) {
    if (turn.role === 'model') {
      const calls = turn.calls.map(({ signed: _signed, ...call }) => ({ ...call, id: call.id || `${call.name}#${n++}` }));
      open = calls;
      const text = turn.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
      messages.push({ role: 'assistant', content: text || (calls.length ? null : text), ...(calls.length ? { toolCalls: calls } : {}) });
      continue;
    }
    for (const result of turn.results) {
      const call = open.find((c) => (result.id ? c.id === result.id : c.name === result.name));
      open = open.filter((c) => c !== call);
      messages.push({ role: 'tool', toolCallId: call?.id ?? result.id ?? result.name, content: JSON.stringify(result.response) });
    }
    if (turn.parts.length) messages.push({ role: 'user', content: turn.parts.every((p) => p.type === 'text') ? turn.parts.map((p) => (p as { text: string }).text).join('\n') : turn.parts });
  }
  return messages;
}

/** The OpenAPI subset's upper-case type names as JSON Schema's, so the answer generator reads either. */
function jsonSchemaOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchemaOf);
  if (!isObject(schema)) return schema;
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === 'type' && typeof v === 'string' ? v.toLowerCase() : jsonSchemaOf(v)]));
}

function toolsOf(raw: unknown): AnswerTool[] | SimError {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) return invalid('* GenerateContentRequest.tools: must be a list.');
  const tools: AnswerTool[] = [];
  for (const tool of raw) {
    for (const fn of Array.isArray(tool?.functionDeclarations) ? tool.functionDeclarations : []) {
      if (typeof fn?.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/.test(fn.name)) return invalid(`* GenerateContentRequest.tools[0].function_declarations: [FIELD_INVALID] Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 128.`);
      if (fn.parameters !== undefined && fn.parametersJsonSchema !== undefined) return invalid('* GenerateContentRequest.tools[0].function_declarations: parameters and parameters_json_schema are mutually exclusive.');
      const parameters = fn.parametersJsonSchema ?? jsonSchemaOf(fn.parameters) ?? { type: 'object', properties: {} };
      tools.push({ name: fn.name, description: fn.description, parameters: parameters as AnswerTool['parameters'] });
    }
  }
  return tools;
}

function toolChoiceOf(raw: unknown, tools: AnswerTool[]): ToolChoice | undefined {
  const config = isObject(raw) && isObject(raw.functionCallingConfig) ? raw.functionCallingConfig : undefined;
  if (!config || !tools.length) return undefined;
  if (config.mode === 'NONE') return 'none';
  if (config.mode !== 'ANY') return undefined;
  const allowed = Array.isArray(config.allowedFunctionNames) ? config.allowedFunctionNames : [];
  return allowed.length === 1 ? { name: String(allowed[0]) } : 'required';
}

/**
 * Effort from `thinkingConfig`; thinking models think (dynamically) unless told a budget of 0. Told
 * a budget, the model thinks all of it, out of `maxOutputTokens` (the worst case Gemini allows: the
 * empty answer of a budget that leaves the answer no room).
 */
function reasoningOf(config: any, model: string): { effort: string; spendTokens?: number } | SimError | undefined {
  const family = geminiFamily(model);
  const thinking = isObject(config?.thinkingConfig) ? config.thinkingConfig : {};
  if (thinking.thinkingBudget !== undefined && thinking.thinkingLevel !== undefined) return invalid('You can only set only one of thinking budget and thinking level.');
  if (thinking.thinkingLevel !== undefined && !family.levels) return invalid('Thinking level is not supported for this model.');
  if (!family.thinks) return undefined;
  if (typeof thinking.thinkingLevel === 'string') return { effort: thinking.thinkingLevel.toLowerCase() };
  const budget = thinking.thinkingBudget;
  if (budget === 0) return undefined;
  if (typeof budget === 'number' && budget > 0) return { effort: budget <= 1024 ? 'low' : budget <= 8192 ? 'medium' : 'high', spendTokens: budget };
  return { effort: 'medium' };
}

/** A `generateContent` body in the common shape, or the 400 the API answers it with. */
export function parseGeminiRequest(raw: string, route: GeminiRoute): SimRequest | SimError {
  let json: any;
  try {
    json = JSON.parse(raw);
  } catch {
    return invalid('Invalid JSON payload received. Unexpected token.');
  }
  if (!isObject(json)) return invalid('Invalid JSON payload received. Expected an object.');
  if (!Array.isArray(json.contents) || json.contents.length === 0) return invalid('* GenerateContentRequest.contents: contents is not specified');
  const turns: Turn[] = [];
  for (let i = 0; i < json.contents.length; i++) {
    const turn = turnOf(json.contents[i], i);
    if ('kind' in turn) return turn;
    turns.push(turn);
  }
  const signatures = checkSignatures(turns, route.model);
  if (signatures) return signatures;
  const tools = toolsOf(json.tools);
  if ('kind' in tools) return tools;
  const config = isObject(json.generationConfig) ? json.generationConfig : {};
  if (config.responseSchema !== undefined && config.responseJsonSchema !== undefined) return invalid('* GenerateContentRequest.generation_config.response_schema: response_schema and response_json_schema are mutually exclusive.');
  const json_ = config.responseMimeType === 'application/json';
  if (json_ && tools.length && geminiFamily(route.model).version < 3) return invalid("Function calling with a response mime type: 'application/json' is unsupported");
  const schema = config.responseJsonSchema ?? jsonSchemaOf(config.responseSchema);
  const reasoning = reasoningOf(config, route.model);
  if (reasoning && 'kind' in reasoning) return reasoning;
  const system = isObject(json.systemInstruction) && Array.isArray(json.systemInstruction.parts)
    ? json.systemInstruction.parts.map((p: any) => (typeof p?.text === 'string' ? p.text : '')).filter(Boolean).join('\n') : '';
  const toolChoice = toolChoiceOf(json.toolConfig, tools);
  const maxTokens = Number.isInteger(config.maxOutputTokens) && config.maxOutputTokens > 0 ? config.maxOutputTokens : undefined;
  return {
    model: route.model,
    messages: messagesOf(turns, system),
    maxTokens,
    stream: route.stream,
    includeUsage: true,
    ...(tools.length ? { tools } : {}),
    ...(toolChoice ? { toolChoice } : {}),
    ...(json_ ? { responseFormat: isObject(schema) ? { type: 'json_schema' as const, schema } : { type: 'json' as const } } : {}),
    ...(reasoning ? { reasoning } : {}),
  };
}
