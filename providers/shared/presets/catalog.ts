/**
 * What each `openai-compatible` preset fills in: where the API lives, which environment variable
 * holds its key, and what it can carry. Data only (no imports), so the config schema can list the
 * names and the resolver can fill a provider in without loading an adapter. Each entry's sources
 * are in `providers/shared/presets/<name>.md`; the table is in `providers/shared/presets/README.md`.
 */

/** Every preset name, in the order the docs list them. */
export const PRESET_NAMES = ['groq', 'mistral', 'deepseek', 'openrouter', 'together', 'fireworks', 'xai', 'ollama', 'vllm'] as const;

/** One of `PRESET_NAMES`. */
export type PresetName = (typeof PRESET_NAMES)[number];

/** What a preset's API can carry (the same keys as `providers.<name>.capabilities`). */
export interface PresetCapabilities {
  tools: boolean;
  images: boolean;
  files: boolean;
  jsonSchema: boolean;
  embeddings: boolean;
}

/** One preset's defaults; anything the provider's config sets itself wins. */
export interface PresetDefaults {
  baseURL: string;
  /** The variable the key is read from; undefined for local servers that need none. */
  apiKeyEnv?: string;
  capabilities: PresetCapabilities;
}

const all = (over: Partial<PresetCapabilities> = {}): PresetCapabilities => ({ tools: true, images: true, files: false, jsonSchema: true, embeddings: true, ...over });

/** The defaults of every preset. */
export const PRESETS: Readonly<Record<PresetName, Readonly<PresetDefaults>>> = Object.freeze({
  // No embeddings endpoint; vision on its multimodal models only.
  groq: { baseURL: 'https://api.groq.com/openai/v1', apiKeyEnv: 'GROQ_API_KEY', capabilities: all({ embeddings: false }) },
  mistral: { baseURL: 'https://api.mistral.ai/v1', apiKeyEnv: 'MISTRAL_API_KEY', capabilities: all() },
  // Text only; JSON Output is `json_object` only (no `json_schema`), and no embeddings API.
  deepseek: { baseURL: 'https://api.deepseek.com', apiKeyEnv: 'DEEPSEEK_API_KEY', capabilities: all({ images: false, jsonSchema: false, embeddings: false }) },
  // PDFs go as `file` parts (OpenRouter parses them for any model).
  openrouter: { baseURL: 'https://openrouter.ai/api/v1', apiKeyEnv: 'OPENROUTER_API_KEY', capabilities: all({ files: true }) },
  together: { baseURL: 'https://api.together.xyz/v1', apiKeyEnv: 'TOGETHER_API_KEY', capabilities: all() },
  fireworks: { baseURL: 'https://api.fireworks.ai/inference/v1', apiKeyEnv: 'FIREWORKS_API_KEY', capabilities: all() },
  xai: { baseURL: 'https://api.x.ai/v1', apiKeyEnv: 'XAI_API_KEY', capabilities: all() },
  // Local servers: no key; Ollama takes images as data: URLs only.
  ollama: { baseURL: 'http://localhost:11434/v1', capabilities: all() },
  vllm: { baseURL: 'http://localhost:8000/v1', capabilities: all() },
});
