import { ModelError } from '../../../content/index.ts';
import type { ModelErrorKind } from '../../../content/index.ts';

/**
 * The fields provider SDK errors carry (the OpenAI and Anthropic SDKs share this shape). Read
 * structurally so this helper depends on no SDK.
 */
interface ProviderErrorShape {
  readonly name?: unknown;
  readonly message?: unknown;
  readonly status?: unknown;
  readonly headers?: unknown;
  readonly code?: unknown;
  readonly type?: unknown;
}

const contextLengthCodes: ReadonlySet<string> = new Set([
  'context_length_exceeded',
  'string_above_max_length',
]);

// Providers word an overlong prompt differently; these phrases cover OpenAI, the common
// OpenAI-compatible servers (vLLM, llama.cpp, Ollama) and Anthropic.
const contextLengthMessage =
  /context[ _-]?(length|window)|maximum context|prompt is too long|too many tokens|exceeds the (model's )?(maximum|max)/i;

/**
 * Maps any error thrown by a provider SDK call to a `ModelError`. Composition: an existing
 * `ModelError` is returned as is (errors are wrapped once); an aborted `signal` wins over
 * whatever the SDK threw while tearing the request down, so a cancelled call is always `aborted`.
 *
 * Kinds: 401/403 `authentication`; 429 `rate_limit` with `retryAfterMs` from the `retry-after-ms`
 * or `retry-after` header; 400/413/422 whose code or message says the context is too long
 * `context_length`; other 4xx `invalid_request`; 5xx `server`; connection failures `network`;
 * an API error without a status (an error event inside a stream) `server` unless its code says
 * otherwise; anything else `unknown`. The provider's message is kept.
 */
export function toModelError(error: unknown, provider: string, signal?: AbortSignal): ModelError {
  if (error instanceof ModelError) return error;
  const shape: ProviderErrorShape = typeof error === 'object' && error !== null ? error : {};
  // SDK error classes do not all set `name`; their class name is what identifies them.
  const ownName = typeof shape.name === 'string' ? shape.name : '';
  const name =
    ownName === 'Error' && typeof error === 'object' && error !== null
      ? error.constructor.name
      : ownName;
  const message =
    typeof shape.message === 'string' && shape.message !== '' ? shape.message : String(error);
  const status = typeof shape.status === 'number' ? shape.status : undefined;
  const code = typeof shape.code === 'string' ? shape.code : undefined;
  const make = (kind: ModelErrorKind, retryAfterMs?: number): ModelError =>
    new ModelError({
      kind,
      provider,
      message,
      cause: error,
      ...(status === undefined ? {} : { status }),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });

  if (signal?.aborted === true || name === 'APIUserAbortError' || name === 'AbortError') {
    return make('aborted');
  }
  if (status !== undefined) {
    if (status === 401 || status === 403) return make('authentication');
    if (status === 429) return make('rate_limit', retryAfterMilliseconds(shape.headers));
    if (isContextLength(code, message) && (status === 400 || status === 413 || status === 422)) {
      return make('context_length');
    }
    if (status >= 400 && status < 500) return make('invalid_request');
    if (status >= 500) return make('server');
    return make('unknown');
  }
  if (name === 'APIConnectionError' || name === 'APIConnectionTimeoutError') return make('network');
  // An SDK API error raised from an error event inside a stream has the API error fields but no
  // status: the provider failed mid-answer.
  if ('headers' in shape && 'code' in shape) {
    if (code !== undefined && isContextLength(code, message)) return make('context_length');
    if (code === 'rate_limit_exceeded') return make('rate_limit');
    return make('server');
  }
  return make('unknown');
}

function isContextLength(code: string | undefined, message: string): boolean {
  return (code !== undefined && contextLengthCodes.has(code)) || contextLengthMessage.test(message);
}

/**
 * The delay a rate-limited response asks for, in milliseconds: `retry-after-ms` first (OpenAI),
 * then `retry-after` as seconds or an HTTP date. Undefined when neither header is usable.
 */
export function retryAfterMilliseconds(headers: unknown): number | undefined {
  const milliseconds = readHeader(headers, 'retry-after-ms');
  if (milliseconds !== undefined) {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = readHeader(headers, 'retry-after');
  if (retryAfter === undefined) return undefined;
  const seconds = Number(retryAfter);
  if (retryAfter.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function readHeader(headers: unknown, name: string): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  if ('get' in headers && typeof headers.get === 'function') {
    const value: unknown = (headers as { get: (key: string) => unknown }).get(name);
    return typeof value === 'string' ? value : undefined;
  }
  const value: unknown = (headers as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}
