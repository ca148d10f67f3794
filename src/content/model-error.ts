import { HookwireError } from './hookwire-error.ts';
import type { ModelErrorKind } from './model.ts';

/**
 * A model call failed. `kind` classifies the failure portably; `status` and `retryAfterMs` are set
 * when the provider gave them; the provider's own error stays as `cause`.
 */
export class ModelError extends HookwireError {
  readonly kind: ModelErrorKind;
  readonly provider: string;
  readonly status?: number;
  readonly retryAfterMs?: number;

  constructor(options: {
    kind: ModelErrorKind;
    provider: string;
    message: string;
    status?: number;
    retryAfterMs?: number;
    cause?: unknown;
  }) {
    super(`model_${options.kind}`, options.message, { cause: options.cause });
    this.name = 'ModelError';
    this.kind = options.kind;
    this.provider = options.provider;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}
