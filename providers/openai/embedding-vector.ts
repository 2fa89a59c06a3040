/**
 * One `data[i].embedding` as a plain array of numbers, whichever encoding the server used: a base64
 * string is little-endian float32 (what OpenAI sends for `encoding_format: "base64"`), an array of
 * numbers is kept as is (what Ollama and LiteLLM send even when asked for base64, §7.1). Returns
 * undefined for anything else, or a base64 payload that is not a whole number of float32s.
 */
export function embeddingVector(value: unknown): number[] | undefined {
  if (Array.isArray(value)) return value.every((x) => typeof x === 'number') ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length % 4 !== 0) return undefined;
  const vector = new Array<number>(bytes.length / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4);
  return vector;
}
