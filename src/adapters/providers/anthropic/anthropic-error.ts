import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ModelError, type ModelErrorKind } from '../../../content/index.ts';
import { retryAfterMilliseconds } from '../shared/model-error-mapping.ts';

const PROVIDER = 'anthropic';

// The message Anthropic returns for a prompt over the context window (400 invalid_request_error).
const contextLengthPattern = /prompt is too long|context window|too many (input )?tokens/i;

/** Anthropic's `error.type` values (HTTP bodies and mid-stream `error` events) by kind. */
const kindsByErrorType: Readonly<Record<string, ModelErrorKind>> = {
  authentication_error: 'authentication',
  permission_error: 'authentication',
  rate_limit_error: 'rate_limit',
  invalid_request_error: 'invalid_request',
  not_found_error: 'invalid_request',
  request_too_large: 'invalid_request',
  api_error: 'server',
  overloaded_error: 'server',
  timeout_error: 'server',
};

function kindOfStatus(status: number): ModelErrorKind {
  if (status === 401 || status === 403) return 'authentication';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server'; // includes 529 overloaded
  if (status >= 400) return 'invalid_request';
  return 'unknown';
}

/**
 * Wraps whatever the Anthropic SDK threw as a `ModelError` (once: a `ModelError` passes through).
 * An aborted `signal` always reads as `aborted`, whatever the SDK made of the cancellation.
 */
export function toAnthropicModelError(error: unknown, signal?: AbortSignal): ModelError {
  if (error instanceof ModelError) return error;
  if (signal?.aborted === true || error instanceof APIUserAbortError) {
    return new ModelError({
      kind: 'aborted',
      provider: PROVIDER,
      message: 'The Anthropic call was aborted',
      cause: error,
    });
  }
  if (error instanceof APIConnectionError) {
    return new ModelError({
      kind: 'network',
      provider: PROVIDER,
      message: `Could not reach the Anthropic API: ${error.message}`,
      cause: error,
    });
  }
  if (error instanceof APIError) {
    const status = typeof error.status === 'number' ? error.status : undefined;
    const errorType = typeof error.type === 'string' ? error.type : undefined;
    let kind: ModelErrorKind =
      status !== undefined
        ? kindOfStatus(status)
        : ((errorType === undefined ? undefined : kindsByErrorType[errorType]) ?? 'unknown');
    if (kind === 'invalid_request' && contextLengthPattern.test(error.message)) {
      kind = 'context_length';
    }
    const headers = error.headers as Headers | undefined;
    const retryAfterMs =
      kind === 'rate_limit' && headers !== undefined ? retryAfterMilliseconds(headers) : undefined;
    return new ModelError({
      kind,
      provider: PROVIDER,
      message: `Anthropic ${status === undefined ? (errorType ?? 'error') : String(status)}: ${error.message}`,
      ...(status === undefined ? {} : { status }),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError({
    kind: 'unknown',
    provider: PROVIDER,
    message: `Anthropic call failed: ${message}`,
    cause: error,
  });
}
