// The Gemini API's JSON (generativelanguage.googleapis.com v1beta), as far as this adapter reads or
// writes it. Field names from the REST reference and @google/genai 2.32's types (README.md here).

/** Raw media bytes, base64. */
export interface GeminiBlob {
  mimeType: string;
  data: string;
}

/** A file by URI: a Files API URI, or (since 2026-01) a public http(s) URL. */
export interface GeminiFileData {
  mimeType: string;
  fileUri: string;
}

/** A predicted function call; `id` only when the API gives one. */
export interface GeminiFunctionCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

/** A function's result sent back; `response` is an object (`output` / `error` keys by convention). */
export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  response: Record<string, unknown>;
}

/** One part of a content: exactly one of its data fields, plus the thought flags. */
export interface GeminiPart {
  text?: string;
  inlineData?: GeminiBlob;
  fileData?: GeminiFileData;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
  /** A summary of the model's thinking (only with `includeThoughts`). */
  thought?: boolean;
  /** Opaque; must come back on the same part in the next turn (Gemini 3 enforces it on function calls). */
  thoughtSignature?: string;
}

export interface GeminiContent {
  role?: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** The OpenAPI-subset schema (models before 2.5). */
  parameters?: Record<string, unknown>;
  /** JSON Schema (2.5 and newer). */
  parametersJsonSchema?: Record<string, unknown>;
}

export interface GeminiToolConfig {
  functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] };
}

export interface GeminiThinkingConfig {
  thinkingBudget?: number;
  thinkingLevel?: 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';
  includeThoughts?: boolean;
}

export interface GeminiGenerationConfig {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
  seed?: number;
  responseMimeType?: string;
  responseSchema?: Record<string, unknown>;
  responseJsonSchema?: Record<string, unknown>;
  thinkingConfig?: GeminiThinkingConfig;
}

/** The body of `models/{model}:generateContent` and `:streamGenerateContent`. */
export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: Array<{ functionDeclarations: GeminiFunctionDeclaration[] }>;
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
  [extra: string]: unknown;
}

export interface GeminiCandidate {
  content?: { role?: string; parts?: GeminiPart[] };
  finishReason?: string;
  /** Why it stopped, in words; for MALFORMED_FUNCTION_CALL, the call as the model wrote it. */
  finishMessage?: string;
  index?: number;
}

/** `usageMetadata`: `candidatesTokenCount` excludes thinking (`thoughtsTokenCount`); `cachedContentTokenCount` is part of the prompt. */
export interface GeminiUsage {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
  toolUsePromptTokenCount?: number;
  totalTokenCount?: number;
}

/** A `generateContent` answer, or one chunk of a stream (each chunk has this shape). */
export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
  usageMetadata?: GeminiUsage;
  modelVersion?: string;
  responseId?: string;
}

/** One entry of `error.details`, told apart by `@type`. */
export interface GeminiErrorDetail {
  '@type'?: string;
  /** RetryInfo: a protobuf Duration in JSON, e.g. `"13s"` or `"0.5s"`. */
  retryDelay?: string;
  /** QuotaFailure. */
  violations?: Array<{ quotaId?: string; quotaMetric?: string; quotaValue?: string }>;
  /** ErrorInfo. */
  reason?: string;
  domain?: string;
  metadata?: Record<string, string>;
}

/** Google's error envelope, on every failed status and as a mid-stream `data:` frame. */
export interface GeminiErrorBody {
  error?: { code?: number; message?: string; status?: string; details?: GeminiErrorDetail[] };
}
