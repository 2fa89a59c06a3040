/** What this adapter needs to know about a Gemini model, read from its name. */
export interface GeminiModelTraits {
  /** How thinking is controlled: Gemini 3 `thinkingLevel`, 2.5 `thinkingBudget`, or not at all. */
  thinking: 'level' | 'budget' | 'none';
  /** Gemini 3 Pro takes only LOW and HIGH levels; 2.5 Pro cannot turn thinking off (budget 128 at least). */
  pro: boolean;
  /** 2.5 and newer take JSON Schema (`responseJsonSchema`, `parametersJsonSchema`); older ones the OpenAPI subset only. */
  jsonSchema: boolean;
  /** Gemini 3 validates thought signatures on the function calls of the current turn. */
  signatures: boolean;
  /** Function calling together with a JSON response mime type: Gemini 3 only (2.5 answers 400). */
  toolsWithJson: boolean;
}

const VERSION = /^gemini-(\d+)(?:\.(\d+))?/;

/**
 * A model's traits from its name (`gemini-2.5-flash`, `models/gemini-3-pro-preview`, a dated or
 * `-latest` alias). Names outside the `gemini-N` scheme (tuned models, `gemma-*`) get the oldest
 * traits: no thinking config, the OpenAPI schema subset.
 */
export function geminiModelTraits(model: string): GeminiModelTraits {
  const name = model.replace(/^models\//, '');
  const match = VERSION.exec(name);
  const major = match ? Number(match[1]) : 0;
  const minor = match?.[2] ? Number(match[2]) : 0;
  const version = major + minor / 10;
  const pro = /-pro\b/.test(name);
  return {
    thinking: major >= 3 ? 'level' : version >= 2.5 ? 'budget' : 'none',
    pro,
    jsonSchema: version >= 2.5,
    signatures: major >= 3,
    toolsWithJson: major >= 3,
  };
}
