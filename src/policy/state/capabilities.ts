import type { ResolvedProvider } from '../../config/index.js';
import type { ProviderTraits } from '../../../providers/types.js';
import { RouterError } from '../../errors.js';
import type { ChatRequest } from '../../types.js';

/** What a request may need of a target beyond plain text. */
export type Capability = 'tools' | 'images' | 'files' | 'jsonSchema' | 'embeddings';

/** A target's capabilities: everything, unless its adapter lacks it (embeddings) or the config says it lacks it. */
export type Capabilities = Readonly<Record<Capability, boolean>>;

/** What a target can carry: the adapter's own limits, then what an `openai-compatible` config declares it lacks. */
export function capabilitiesOf(provider: ResolvedProvider, traits: ProviderTraits): Capabilities {
  const declared = provider.type === 'openai-compatible' ? provider.capabilities ?? {} : {};
  return {
    tools: declared.tools ?? true,
    images: declared.images ?? true,
    files: declared.files ?? true,
    jsonSchema: declared.jsonSchema ?? true,
    embeddings: traits.maxEmbeddingInputs !== undefined && (declared.embeddings ?? true),
  };
}

const NOTHING: readonly Capability[] = Object.freeze([]);

/** What a chat request needs beyond plain text: tools (declared, or in the history), images, files, a JSON schema. */
export function needsOf(request: ChatRequest): readonly Capability[] {
  // The common case, a plain text conversation, needs nothing and allocates nothing.
  if (!request.tools && !request.responseFormat && request.messages.every(isPlainText)) return NOTHING;
  const needs = new Set<Capability>();
  if (request.tools && request.tools.length > 0) needs.add('tools');
  if (request.responseFormat?.type === 'json_schema') needs.add('jsonSchema');
  for (const m of request.messages) {
    if (m.role === 'tool' || (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0)) needs.add('tools');
    if (m.role === 'user' && typeof m.content !== 'string') {
      for (const part of m.content) {
        if (part.type === 'image') needs.add('images');
        else if (part.type === 'file') needs.add('files');
      }
    }
  }
  return [...needs];
}

function isPlainText(m: ChatRequest['messages'][number]): boolean {
  return typeof m.content === 'string' && m.role !== 'tool' && (m.role !== 'assistant' || !m.toolCalls || m.toolCalls.length === 0);
}

/** The capabilities in `needs` that a target lacks. */
export function missing(needs: readonly Capability[], capabilities: Capabilities): Capability[] {
  return needs.filter((n) => !capabilities[n]);
}

/** A request no target of its chain can carry fails before anything is sent, naming what is missing where. */
export function assertCarried(chain: string, targets: readonly { target: { key: string }; capabilities: Capabilities }[], needs: readonly Capability[]): void {
  const lacking = targets.map((t) => ({ key: t.target.key, lacks: missing(needs, t.capabilities) }));
  if (lacking.some((t) => t.lacks.length === 0)) return;
  const detail = lacking.map((t) => `${t.key} lacks ${t.lacks.join(', ')}`).join('; ');
  throw new RouterError('unsupported', `no target of chain "${chain}" can carry this request: ${detail}`);
}
