import { ApiError } from '@google/genai';
import { ModelError, type ModelErrorKind } from '../../../content/index.ts';

const PROVIDER = 'google';

interface GoogleErrorBody {
  readonly code?: number;
  readonly message?: string;
  readonly status?: string;
  readonly details?: readonly {
    readonly '@type'?: string;
    readonly retryDelay?: string;
    readonly reason?: string;
  }[];
}

// The SDK puts the JSON error body in the message (after a `got status: …. ` prefix mid-stream).
function errorBodyOf(message: string): GoogleErrorBody | undefined {
  const start = message.indexOf('{');
  if (start === -1) return undefined;
  try {
    const parsed = JSON.parse(message.slice(start)) as { error?: GoogleErrorBody };
    return typeof parsed.error === 'object' ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

// `google.rpc.RetryInfo.retryDelay` is a duration string such as "30s" or "1.5s".
function retryDelayMs(body: GoogleErrorBody | undefined): number | undefined {
  for (const detail of body?.details ?? []) {
    if (detail.retryDelay === undefined) continue;
    const match = /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay);
    if (match?.[1] !== undefined) return Math.round(Number(match[1]) * 1000);
  }
  return undefined;
}

const contextLengthPattern =
  /input token count|exceeds the maximum number of tokens|too many tokens|context (length|window)/i;
const invalidKeyPattern = /API key not valid|API_KEY_INVALID|API key expired/i;

function kindOf(status: number, text: string): ModelErrorKind {
  if (status === 401 || status === 403) return 'authentication';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server';
  if (status === 400 && invalidKeyPattern.test(text)) return 'authentication';
  if (status === 400 && contextLengthPattern.test(text)) return 'context_length';
  if (status >= 400) return 'invalid_request';
  return 'unknown';
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/**
 * Wraps whatever the Gemini SDK threw as a `ModelError` (a `ModelError` passes through).
 * `retryAfterMs` on a 429 comes from the `retry-after` header when the adapter saw one
 * (`retryAfterHeaderMs`), else from the body's `RetryInfo.retryDelay`. Gemini answers an invalid
 * key with 400 `API_KEY_INVALID`, which reads as `authentication`.
 */
export function toGeminiModelError(
  error: unknown,
  signal?: AbortSignal,
  retryAfterHeaderMs?: number,
): ModelError {
  if (error instanceof ModelError) return error;
  if (signal?.aborted === true || isAbortError(error)) {
    return new ModelError({
      kind: 'aborted',
      provider: PROVIDER,
      message: 'The Gemini call was aborted',
      cause: error,
    });
  }
  if (error instanceof ApiError) {
    const body = errorBodyOf(error.message);
    const kind = kindOf(error.status, error.message);
    const retryAfterMs =
      kind === 'rate_limit' ? (retryAfterHeaderMs ?? retryDelayMs(body)) : undefined;
    return new ModelError({
      kind,
      provider: PROVIDER,
      message: `Gemini ${error.status}${body?.status === undefined ? '' : ` ${body.status}`}: ${body?.message ?? error.message}`,
      status: error.status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  // fetch rejects with a TypeError ("fetch failed") when the connection cannot be made or breaks.
  const kind: ModelErrorKind = error instanceof TypeError ? 'network' : 'unknown';
  return new ModelError({
    kind,
    provider: PROVIDER,
    message:
      kind === 'network'
        ? `Could not reach the Gemini API: ${message}`
        : `Gemini call failed: ${message}`,
    cause: error,
  });
}
