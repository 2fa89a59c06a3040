/** Environment variables whose values sign Bedrock requests: never shown in an error. */
const SECRET_ENV = ['AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_BEARER_TOKEN_BEDROCK'] as const;

/**
 * Replaces the AWS secrets of the environment (read when the adapter is built) with `[REDACTED]`.
 * SigV4 never sends the secret key, but an error that quotes a signed request, a proxy's echo or a
 * session token would carry it, so every message that leaves the adapter passes through this.
 */
export function awsSecretRedactor(env: NodeJS.ProcessEnv = process.env): (text: string) => string {
  const secrets = SECRET_ENV.map((name) => env[name]).filter((v): v is string => typeof v === 'string' && v.length >= 8);
  return (text) => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[REDACTED]');
    return out;
  };
}
