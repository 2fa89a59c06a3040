import { converseCachePoints } from './cache-points.js';
import type { AnswerTool } from '../../providers/shared/answers/index.js';
import type { ContentPart, Message, ToolCall, ToolChoice } from '../types.js';
import { decodeBase64, sniffImage } from './data-url.js';
import type { SimError, SimRequest } from './sim-request.js';
import { signatureMatches } from './thinking.js';

// Converse request bodies (API_runtime_Converse; providers/bedrock/README.md). The messages quoted
// are Bedrock's own ValidationException texts as users report them; the rest are plausible.
const invalid = (message: string): SimError => ({ kind: 'invalid_request', message });
const isObject = (x: unknown): x is Record<string, any> => typeof x === 'object' && x !== null && !Array.isArray(x);
const IMAGE_FORMATS = new Set(['png', 'jpeg', 'gif', 'webp']);
const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf', csv: 'text/csv', doc: 'application/msword', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', html: 'text/html', txt: 'text/plain', md: 'text/markdown',
};
const DOCUMENT_NAME = /^[A-Za-z0-9()[\]-]+(?: [A-Za-z0-9()[\]-]+)*$/;
const TOOL_USE_ID = /^[a-zA-Z0-9_-]{1,64}$/;
/** A Claude model id, bare, cross-region (`us.anthropic.claude-...`) or under an ARN. */
const CLAUDE = /(?:^|[./])anthropic\.claude/;

/** Where the model and the kind of call come from: Converse puts both in the path, not the body. */
export interface BedrockRoute {
  model: string;
  stream: boolean;
}

interface Turn {
  role: 'user' | 'assistant';
  messages: Message[];
  toolUses: number;
}

function textOfResult(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content.map((c) => (isObject(c) ? (typeof c.text === 'string' ? c.text : c.json !== undefined ? JSON.stringify(c.json) : '') : '')).filter(Boolean).join('\n');
}

function userPart(block: Record<string, any>, path: string): ContentPart | SimError | undefined {
  if (isObject(block.image)) {
    const { format, source } = block.image;
    if (!IMAGE_FORMATS.has(format)) return invalid(`${path}.image.format: Member must satisfy enum value set: [png, jpeg, gif, webp]`);
    if (isObject(source) && isObject(source.s3Location)) return { type: 'image', url: String(source.s3Location.uri) };
    const bytes = isObject(source) && typeof source.bytes === 'string' ? decodeBase64(source.bytes) : undefined;
    if (!bytes || bytes.length === 0 || !sniffImage(bytes)) return invalid('The model returned the following errors: Could not process image');
    return { type: 'image', url: `data:image/${format};base64,${source.bytes}` };
  }
  if (isObject(block.document)) {
    const { format, name, source } = block.document;
    const mediaType = DOCUMENT_TYPES[format];
    if (!mediaType) return invalid(`${path}.document.format: Member must satisfy enum value set: [${Object.keys(DOCUMENT_TYPES).join(', ')}]`);
    if (typeof name !== 'string' || !DOCUMENT_NAME.test(name)) return invalid(`${path}.document.name: the name can only contain alphanumeric characters, whitespace characters (no more than one in a row), hyphens, parentheses and square brackets`);
    return { type: 'file', data: isObject(source) && typeof source.bytes === 'string' ? source.bytes : '', mediaType, filename: name };
  }
  return undefined;
}

/**
 * A reasoning block sent back: only Claude takes them, and only with its own signature (Bedrock
 * relays Anthropic's 400 text: "messages.N.content.M: Invalid `signature` in `thinking` block");
 * the refusal for other models is plausible, not quoted.
 */
function reasoningRefusal(block: Record<string, any>, path: string, role: string, claude: boolean): SimError | undefined {
  if (role !== 'assistant') return invalid(`${path}: a reasoningContent block is only allowed in an assistant message`);
  if (!claude) return invalid(`${path}.reasoningContent: This model doesn't support reasoning content in the conversation history.`);
  const text = isObject(block.reasoningContent) ? block.reasoningContent.reasoningText : undefined;
  if (isObject(text) && !signatureMatches(String(text.text ?? ''), text.signature)) return invalid(`The model returned the following errors: ${path}: Invalid \`signature\` in \`thinking\` block`);
  return undefined;
}

function turnOf(m: any, i: number, hasToolConfig: boolean, claude: boolean): Turn | SimError {
  const role = m?.role;
  if (role !== 'user' && role !== 'assistant') return invalid(`messages.${i}.role: Member must satisfy enum value set: [user, assistant]`);
  if (!Array.isArray(m.content) || m.content.length === 0) return invalid(`messages.${i}.content: The content field in the Message object at messages.${i} is empty. Add a ContentBlock object to the content field and try again.`);
  const turn: Turn = { role, messages: [], toolUses: 0 };
  const parts: ContentPart[] = [];
  const calls: ToolCall[] = [];
  for (let j = 0; j < m.content.length; j++) {
    const block = m.content[j];
    const path = `messages.${i}.content.${j}`;
    if (!isObject(block)) return invalid(`${path}: expected a ContentBlock object`);
    if (typeof block.text === 'string') {
      if (block.text.trim() === '') return invalid(`The text field in the ContentBlock object at ${path} is blank. Add text to the text field, and try again.`);
      parts.push({ type: 'text', text: block.text });
    } else if (isObject(block.toolUse) || isObject(block.toolResult)) {
      if (!hasToolConfig) return invalid('The toolConfig field must be defined when using toolUse and toolResult content blocks.');
      if (isObject(block.toolUse)) {
        if (role !== 'assistant') return invalid(`${path}: a toolUse block is only allowed in an assistant message`);
        if (typeof block.toolUse.toolUseId !== 'string' || !TOOL_USE_ID.test(block.toolUse.toolUseId)) return invalid(`${path}.toolUse.toolUseId: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+`);
        turn.toolUses++;
        calls.push({ id: block.toolUse.toolUseId, name: String(block.toolUse.name ?? ''), arguments: isObject(block.toolUse.input) ? block.toolUse.input : {} });
      } else {
        if (role !== 'user') return invalid(`${path}: a toolResult block is only allowed in a user message`);
        turn.messages.push({ role: 'tool', toolCallId: String(block.toolResult.toolUseId), content: textOfResult(block.toolResult.content), ...(block.toolResult.status === 'error' ? { isError: true } : {}) });
      }
    } else if (block.image !== undefined || block.document !== undefined) {
      if (role !== 'user') return invalid(`${path}: images and documents are only allowed in a user message`);
      const part = userPart(block, path);
      if (part && 'kind' in part) return part;
      if (part) parts.push(part);
    } else if (block.reasoningContent !== undefined) {
      const refused = reasoningRefusal(block, path, role, claude);
      if (refused) return refused;
    }
    // cachePoint is read by cache-points.ts; guardContent and the rest are accepted and not modelled.
  }
  if (role === 'user') {
    if (parts.length) turn.messages.push({ role: 'user', content: parts });
  } else {
    const text = parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    turn.messages.push({ role: 'assistant', content: text || (calls.length ? null : text), ...(calls.length ? { toolCalls: calls } : {}) });
  }
  return turn;
}

function toolsOf(config: unknown): { tools: AnswerTool[]; choice?: ToolChoice } | SimError {
  if (config === undefined || config === null) return { tools: [] };
  if (!isObject(config) || !Array.isArray(config.tools) || config.tools.length === 0) return invalid('toolConfig.tools: Member must have length greater than or equal to 1');
  const tools: AnswerTool[] = [];
  for (let i = 0; i < config.tools.length; i++) {
    const spec = config.tools[i]?.toolSpec;
    if (!isObject(spec)) continue; // cachePoint and system tools
    if (typeof spec.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(spec.name)) return invalid(`toolConfig.tools.${i}.member.toolSpec.name: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+`);
    if (!isObject(spec.inputSchema) || !isObject(spec.inputSchema.json)) return invalid(`toolConfig.tools.${i}.member.toolSpec.inputSchema: Member must not be null`);
    tools.push({ name: spec.name, description: spec.description, parameters: spec.inputSchema.json });
  }
  const c = config.toolChoice;
  if (c === undefined || c === null) return { tools };
  if (isObject(c.auto)) return { tools, choice: 'auto' };
  if (isObject(c.any)) return { tools, choice: 'required' };
  if (isObject(c.tool)) {
    if (!tools.some((t) => t.name === c.tool.name)) return invalid(`toolConfig.toolChoice.tool.name: the tool ${String(c.tool.name)} is not in toolConfig.tools`);
    return { tools, choice: { name: c.tool.name } };
  }
  return invalid('toolConfig.toolChoice: expected exactly one of auto, any, tool');
}

function formatOf(output: unknown): SimRequest['responseFormat'] | SimError | undefined {
  if (!isObject(output) || output.textFormat === undefined) return undefined;
  const format = output.textFormat;
  const schema = isObject(format) && format.type === 'json_schema' ? format.structure?.jsonSchema?.schema : undefined;
  if (typeof schema !== 'string') return invalid("outputConfig.textFormat: expected type 'json_schema' and structure.jsonSchema.schema as a JSON string");
  try {
    const parsed = JSON.parse(schema);
    return { type: 'json_schema', schema: isObject(parsed) ? parsed : {} };
  } catch {
    return invalid('outputConfig.textFormat.structure.jsonSchema.schema: the schema is not valid JSON');
  }
}

/** A Converse (or ConverseStream) body in the common shape, or the ValidationException it gets. */
export function parseConverse(raw: string, route: BedrockRoute): SimRequest | SimError {
  let json: any;
  try {
    json = raw === '' ? {} : JSON.parse(raw);
  } catch {
    return invalid('Malformed input request, please reformat your input and try again.');
  }
  if (!isObject(json)) return invalid('Malformed input request, please reformat your input and try again.');
  if (!Array.isArray(json.messages) || json.messages.length === 0) return invalid('A conversation must start with a user message. Try again with a conversation that starts with a user message.');
  const toolList = toolsOf(json.toolConfig);
  if ('kind' in toolList) return toolList;
  const turns: Turn[] = [];
  const claude = CLAUDE.test(route.model);
  for (let i = 0; i < json.messages.length; i++) {
    const turn = turnOf(json.messages[i], i, json.toolConfig !== undefined, claude);
    if ('kind' in turn) return turn;
    if (i === 0 && turn.role !== 'user') return invalid('A conversation must start with a user message. Try again with a conversation that starts with a user message.');
    if (i > 0 && turns[i - 1]!.role === turn.role) return invalid('A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.');
    turns.push(turn);
  }
  const format = formatOf(json.outputConfig);
  if (format && 'kind' in format) return format;
  const inference = isObject(json.inferenceConfig) ? json.inferenceConfig : {};
  if (inference.maxTokens !== undefined && (!Number.isInteger(inference.maxTokens) || inference.maxTokens < 1)) return invalid('inferenceConfig.maxTokens: Member must have value greater than or equal to 1');
  const system = Array.isArray(json.system) ? json.system.map((b: any) => (isObject(b) && typeof b.text === 'string' ? b.text : '')).filter(Boolean).join('\n') : '';
  const thinking = isObject(json.additionalModelRequestFields) && isObject(json.additionalModelRequestFields.thinking) ? json.additionalModelRequestFields.thinking : undefined;
  const thinkingOn = thinking?.type === 'enabled' || thinking?.type === 'adaptive';
  const effort = isObject(json.outputConfig) && typeof json.outputConfig.effort === 'string' ? json.outputConfig.effort : 'high';
  const messages = turns.flatMap((t) => t.messages);
  const cachePoints = converseCachePoints(json, turns.map((t) => t.messages.length), system !== '');
  return {
    model: route.model,
    messages: system ? [{ role: 'system', content: system }, ...messages] : messages,
    ...(inference.maxTokens !== undefined ? { maxTokens: inference.maxTokens } : {}),
    stream: route.stream,
    includeUsage: false,
    ...(toolList.tools.length ? { tools: toolList.tools } : {}),
    ...(toolList.choice ? { toolChoice: toolList.choice } : {}),
    ...(format ? { responseFormat: format } : {}),
    ...(thinkingOn ? { reasoning: { effort }, thinking: { display: 'summarized' as const } } : {}),
    ...(cachePoints.length ? { cachePoints } : {}),
  };
}
