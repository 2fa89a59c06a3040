/**
 * The SDK clients' own request timeout: only a backstop, never reached in practice, because the
 * router times every attempt itself (or hands the SDK each attempt's own timeout). The SDKs' default.
 */
export const SDK_BACKSTOP_TIMEOUT_MS = 600_000;
